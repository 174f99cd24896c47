package io.millrace.consumer.tools;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.protocol.message.ListOffsetsRequest;
import io.millrace.common.serialization.ByteArrayDeserializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.FetchedBatches;
import io.millrace.consumer.GroupConsumer;
import io.millrace.consumer.PartitionReader;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * {@code bin/millrace perf-consumer}, after kafka-consumer-perf-test: reads {@code --messages} records
 * of {@code --topic} from the beginning and prints records/s, MB/s and the elapsed time. With
 * {@code --zookeeper} it reads through the group consumer (a fresh group unless {@code --group});
 * otherwise through a {@link PartitionReader}, partition after partition. {@code --fetch-size} is
 * {@code max.partition.fetch.bytes}.
 */
public final class PerfConsumer {

    private static final Set<String> OPTIONS = Set.of("--bootstrap-server", "--zookeeper", "--topic", "--messages",
        "--group", "--fetch-size", "--consumer-property");
    static final String USAGE = "Usage: perf-consumer --bootstrap-server HOST:PORT --topic T --messages N "
        + "[--zookeeper HOST:PORT [--group G]] [--fetch-size BYTES] [--consumer-property k=v ...]";

    private PerfConsumer() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            ToolArgs parsed = new ToolArgs(args, OPTIONS, Set.of());
            long messages = parsed.getLong("--messages", -1);
            if (messages <= 0) {
                throw new ToolArgs.UsageException("--messages N (N > 0) is required");
            }
            String topic = parsed.require("--topic");
            ConsumerConfig config = config(parsed);
            long start = System.nanoTime();
            long[] counts = parsed.has("--zookeeper") ? viaGroup(config, topic, messages) : viaReader(config, topic, messages);
            report(out, counts[0], counts[1], System.nanoTime() - start);
            return 0;
        } catch (ToolArgs.UsageException e) {
            err.println(e.getMessage());
            err.println(USAGE);
            return 2;
        } catch (RuntimeException e) {
            err.println("perf-consumer failed: " + e);
            return 1;
        }
    }

    private static ConsumerConfig config(ToolArgs args) {
        Map<String, Object> settings = new HashMap<>(args.properties("--consumer-property"));
        settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, args.require("--bootstrap-server"));
        if (args.has("--zookeeper")) {
            settings.put(CommonClientConfigs.ZOOKEEPER_CONNECT_CONFIG, args.get("--zookeeper"));
            settings.put(ConsumerConfig.GROUP_ID_CONFIG, args.has("--group") ? args.get("--group")
                : "perf-consumer-" + UUID.randomUUID().toString().substring(0, 8));
        }
        if (args.has("--fetch-size")) {
            settings.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, args.get("--fetch-size"));
        }
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
        return new ConsumerConfig(settings);
    }

    /** {records, bytes} read through one stream of the group consumer. */
    private static long[] viaGroup(ConsumerConfig config, String topic, long messages) {
        try (GroupConsumer<byte[], byte[]> consumer = new GroupConsumer<>(config, new ByteArrayDeserializer(),
            new ByteArrayDeserializer())) {
            Iterator<ConsumerRecord<byte[], byte[]>> stream = consumer.createMessageStreams(Map.of(topic, 1)).get(topic).get(0).iterator();
            long count = 0;
            long bytes = 0;
            while (count < messages && stream.hasNext()) {
                bytes += size(stream.next());
                count++;
            }
            return new long[] {count, bytes};
        }
    }

    /** {records, bytes} read partition by partition, each from its earliest offset to its end. */
    private static long[] viaReader(ConsumerConfig config, String topic, long messages) {
        try (PartitionReader reader = new PartitionReader(config)) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < reader.partitionCount(topic); p++) {
                partitions.add(new TopicPartition(topic, p));
            }
            Map<TopicPartition, Long> positions = new HashMap<>(reader.offsets(partitions, ListOffsetsRequest.EARLIEST_TIMESTAMP));
            long count = 0;
            long bytes = 0;
            ByteArrayDeserializer raw = new ByteArrayDeserializer();
            while (count < messages) {
                for (TopicPartition tp : partitions) {
                    FetchedBatches fetched = reader.fetch(tp, positions.get(tp));
                    for (ConsumerRecord<byte[], byte[]> record : fetched.records(Long.MAX_VALUE, raw, raw)) {
                        if (count < messages) {
                            bytes += size(record);
                            count++;
                        }
                    }
                    positions.put(tp, fetched.nextOffset());
                }
            }
            return new long[] {count, bytes};
        }
    }

    private static long size(ConsumerRecord<byte[], byte[]> record) {
        return (record.key() == null ? 0 : record.key().length) + (record.value() == null ? 0 : record.value().length);
    }

    private static void report(PrintStream out, long records, long bytes, long elapsedNanos) {
        double seconds = elapsedNanos / 1e9;
        double mb = bytes / (1024.0 * 1024.0);
        out.println("records, MB, elapsed s, records/s, MB/s");
        out.printf("%d, %.2f, %.3f, %.1f, %.2f%n", records, mb, seconds, records / seconds, mb / seconds);
    }
}
