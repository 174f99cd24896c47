package io.millrace.bench.compare;

import io.millrace.common.TopicPartition;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.PartitionReader;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.load.CommitStep;
import io.millrace.hadoop.load.LoadJob;
import io.millrace.hadoop.load.LoadMapper;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;

/**
 * The two sides of the load comparison, each reading every message of partition 0 of a topic with
 * the consumer's default settings (the loader's too): the consumer alone ({@link PartitionReader},
 * optionally decoding each value as the InputFormat's avro values are) and one load ({@link LoadJob} on the
 * LocalJobRunner, its defaults otherwise) into a fresh {@code file://} data root and state directory.
 */
final class LoadScenarios {

    /** What one side did: how many records, how many value bytes, how long. */
    record Timed(long records, long valueBytes, double seconds) {
        double recordsPerSecond() {
            return records / seconds;
        }

        double megabytesPerSecond() {
            return valueBytes / 1e6 / seconds;
        }
    }

    /** One load: its timing, the seconds after the job (commit, moves, summary) and the bytes of the files it wrote. */
    record Load(Timed timed, double commitSeconds, long fileBytes, int files) {
    }

    private LoadScenarios() {
    }

    /**
     * Reads offsets {@code [0, end)} of partition 0 of {@code topic}; with {@code decode}, each value
     * becomes a {@link GenericRecord} with its writer's schema from the registry (fetched once, then
     * cached), as the InputFormat's record reader does for a job's avro values (the load only checks them
     * against that schema and reads their header time). Nothing else is done with the records.
     */
    static Timed consume(String bootstrap, String registryUrl, String topic, long end, boolean decode) {
        AvroDeserializer<GenericRecord> decoder = new AvroDeserializer<>(registry(registryUrl));
        long read = 0;
        long bytes = 0;
        long decoded = 0;
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers", bootstrap)))) {
            reader.partitionCount(topic); // metadata outside the timing
            long start = System.nanoTime();
            Iterator<ConsumerRecord<byte[], byte[]>> records = reader.read(new TopicPartition(topic, 0), 0, end);
            while (records.hasNext()) {
                byte[] value = records.next().value();
                bytes += value.length;
                read++;
                if (decode && decoder.deserialize(topic, value) != null) {
                    decoded++;
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            if (read != end || (decode && decoded != end)) {
                throw new IllegalStateException("The consumer read " + read + " and decoded " + decoded + " of " + end
                    + " messages of " + topic);
            }
            return new Timed(read, bytes, seconds);
        }
    }

    /**
     * One load of {@code topic} into {@code dir}/data, state in {@code dir}/state, Hadoop's scratch space
     * in {@code dir}/hadoop-tmp. Checks that it loaded exactly {@code messages} events and nothing else.
     */
    static Load load(String bootstrap, String registryUrl, String topic, long messages, long valueBytes, Path dir)
        throws IOException, InterruptedException {
        Map<String, Object> settings = new HashMap<>();
        settings.put("bootstrap.servers", bootstrap);
        settings.put(LoadConfig.SCHEMA_REGISTRY_URL_CONFIG, registryUrl);
        settings.put(LoadConfig.DATA_ROOT_CONFIG, dir.resolve("data").toUri().toString());
        settings.put(LoadConfig.STATE_DIR_CONFIG, dir.resolve("state").toUri().toString());
        settings.put(LoadConfig.TOPICS_CONFIG, topic);
        long[] jobDone = {0};
        LoadJob job = new LoadJob(new LoadConfig(settings), localJobConf(dir), step -> {
            if (step == CommitStep.JOB_SUCCEEDED) {
                jobDone[0] = System.nanoTime();
            }
        }, LoadMapper.class);
        long start = System.nanoTime();
        LoadSummary summary = job.run();
        long end = System.nanoTime();
        if (summary == null) {
            throw new IllegalStateException("The load of " + topic + " found nothing to load; expected " + messages + " events");
        }
        if (summary.records() != messages || summary.errors() != 0 || summary.lostMessages() != 0) {
            throw new IllegalStateException("The load of " + topic + " loaded " + summary.records() + " of " + messages
                + " events (" + summary.errors() + " undecodable, " + summary.lostMessages() + " lost)");
        }
        Timed timed = new Timed(summary.records(), valueBytes, (end - start) / 1e9);
        return new Load(timed, (end - jobDone[0]) / 1e9, sizeOf(dir.resolve("data")), summary.files());
    }

    /**
     * The LocalJobRunner on the local file system, as {@code bin/millrace load} runs with no cluster
     * configured. One difference: the job's completion is polled every 100 ms. With logging below INFO
     * (as here) {@code Job.waitForCompletion} polls only every 5 s by default, which would add up to 5 s
     * of waiting to every load; {@code bin/millrace load} logs at INFO and polls every second.
     */
    private static Configuration localJobConf(Path dir) {
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.set("fs.defaultFS", "file:///");
        conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
        conf.setInt("mapreduce.client.completion.pollinterval", 100);
        return conf;
    }

    static SchemaRegistryClient registry(String url) {
        return new SchemaRegistryClient(Map.of("schema.registry.url", url));
    }

    private static long sizeOf(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).filter(f -> f.toString().endsWith(".avro")).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
