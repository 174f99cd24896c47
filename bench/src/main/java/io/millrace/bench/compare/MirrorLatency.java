package io.millrace.bench.compare;

import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.ByteArrayDeserializer;
import io.millrace.common.serialization.ByteArraySerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.FetchedBatches;
import io.millrace.consumer.PartitionReader;
import io.millrace.mirror.MirrorMaker;
import io.millrace.mirror.MirrorMakerConfig;
import io.millrace.mirror.SourceCluster;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The mirror's latency at a steady rate: a producer sends {@code rate} records per second to a live
 * topic, each carrying {@link System#nanoTime()} at its {@code send()} in its first 8 bytes; the mirror
 * copies them into the offline broker; a reader of the offline partition, in this JVM, takes the
 * difference when a fetch hands the copy over. What it measures (live append, the mirror's fetch, send and
 * acknowledgement, the offline fetch) bounds from above the mirror's own latency, the offline
 * acknowledgement minus the record's time. The producer keeps to a schedule (record {@code i} is due at
 * {@code start + i / rate}), sending what is due at once when it wakes late.
 */
final class MirrorLatency {

    /** Percentiles of the measured latencies, in ms. */
    record Result(long records, double p50, double p99, double max) {
    }

    private MirrorLatency() {
    }

    static Result measure(String live, String groups, String offline, int rate, double seconds) throws Exception {
        String topic = "mirror-latency";
        Scenarios.createTopic(live, topic);
        long count = Math.round(rate * seconds);
        long[] latencies = new long[(int) count];
        MirrorMakerConfig config = new MirrorMakerConfig(Map.of(MirrorMakerConfig.WHITELIST_CONFIG, topic,
            MirrorMakerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, 5_000L));
        Map<String, Object> source = Map.of("bootstrap.servers", live, "zookeeper.connect", groups,
            ConsumerConfig.GROUP_ID_CONFIG, "bench-mirror-latency", ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
        Map<String, Object> target = Map.of("bootstrap.servers", offline, "linger.ms", 5, "batch.size", 262_144);
        try (MirrorMaker mirror = new MirrorMaker(config, List.of(new SourceCluster("live", source)), target);
             MillraceProducer<byte[], byte[]> producer = new MillraceProducer<>(Map.of("bootstrap.servers", live,
                 "linger.ms", 5), new ByteArraySerializer(), new ByteArraySerializer());
             PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers", offline,
                 ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100)))) {
            mirror.start();
            // the first record makes the mirror create the offline topic; it is not measured
            producer.send(new ProducerRecord<>(topic, 0, null, stamp())).get(30, TimeUnit.SECONDS);
            TopicPartition copy = new TopicPartition(topic, 0);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (offlineEnd(reader, copy) < 1) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("The mirror did not copy the first record within 60 s");
                }
                Thread.sleep(10);
            }
            Thread sender = new Thread(() -> send(producer, topic, rate, count), "mirror-latency-producer");
            sender.start();
            read(reader, copy, latencies);
            sender.join();
        }
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        return new Result(count, sorted[(int) (count * 0.5)] / 1e6, sorted[(int) Math.min(count - 1, count * 0.99)] / 1e6,
            sorted[(int) count - 1] / 1e6);
    }

    private static long offlineEnd(PartitionReader reader, TopicPartition tp) {
        try {
            return reader.latestOffset(tp);
        } catch (RuntimeException notThereYet) {
            return 0;
        }
    }

    private static byte[] stamp() {
        return ByteBuffer.allocate(MirrorComparison.VALUE_BYTES).putLong(0, System.nanoTime()).array();
    }

    private static void send(MillraceProducer<byte[], byte[]> producer, String topic, int rate, long count) {
        long start = System.nanoTime();
        for (long i = 0; i < count; i++) {
            long due = start + i * 1_000_000_000L / rate;
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            producer.send(new ProducerRecord<>(topic, 0, null, stamp()));
        }
        try {
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void read(PartitionReader reader, TopicPartition tp, long[] latencies) {
        long offset = 1;   // after the unmeasured first record
        int seen = 0;
        ByteArrayDeserializer bytes = new ByteArrayDeserializer();
        while (seen < latencies.length) {
            FetchedBatches fetched = reader.fetch(tp, offset);
            long now = System.nanoTime();
            for (ConsumerRecord<byte[], byte[]> record : fetched.records(Long.MAX_VALUE, bytes, bytes)) {
                if (seen < latencies.length) {
                    latencies[seen++] = now - ByteBuffer.wrap(record.value()).getLong(0);
                }
            }
            offset = fetched.nextOffset();
        }
    }
}
