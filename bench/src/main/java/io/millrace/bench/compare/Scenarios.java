package io.millrace.bench.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The workloads, with Apache Kafka's Java clients (Millrace has no clients of its own yet), the
 * same against either broker. Every message is a 200-byte random value without key or headers,
 * sent to partition 0 of a one-partition topic.
 */
final class Scenarios {

    static final int MESSAGE_BYTES = 200;

    /** {@code log.segment.delete.delay.ms} of both brokers: how long they keep the files of a deleted topic. */
    static final long DELETE_DELAY_MS = 1_000L;

    /** The throughput-over-time resolution: most timed sections last one to a few seconds. */
    static ThroughputTimeline timeline() {
        return new ThroughputTimeline(java.time.Duration.ofMillis(20), java.time.Duration.ofMinutes(10));
    }

    /** A DefaultRecord of a 200-byte value, no key, small deltas: 209 bytes; a batch header: 61. */
    static final int BATCH_50_BYTES = 61 + 50 * 209 + 89;

    /** How each producer scenario configures KafkaProducer (acks=1 and no compression in all). */
    enum ProducerMode {
        /** One record per produce request: batches can hold only one record, one request in flight. */
        BATCH_1("producer batch 1", Map.of("batch.size", "1", "linger.ms", "0",
            "max.in.flight.requests.per.connection", "1")),
        /** Fifty records per request: batch.size fits 50 and not 51 of these records; the producer
         * waits up to 100 ms for a batch to fill; one request in flight. */
        BATCH_50("producer batch 50", Map.of("batch.size", Integer.toString(BATCH_50_BYTES), "linger.ms", "100",
            "max.in.flight.requests.per.connection", "1")),
        /** The client's tuned best for throughput: 256 KiB batches, 10 ms linger, 5 requests in flight. */
        TUNED("producer tuned", Map.of("batch.size", "262144", "linger.ms", "10",
            "max.in.flight.requests.per.connection", "5")),
        /** Not measured: fills the consumer scenarios' topic with batches of 50 records (10.5 KB),
         * so that a 200 KB fetch holds about 1000 messages (a fetch returns whole batches, and
         * would return one 256 KiB batch of the tuned producer however small its limit). */
        FILL("consumer topic fill", Map.of("batch.size", Integer.toString(BATCH_50_BYTES), "linger.ms", "100",
            "max.in.flight.requests.per.connection", "5"));

        final String label;
        final Map<String, String> config;

        ProducerMode(String label, Map<String, String> config) {
            this.label = label;
            this.config = config;
        }
    }

    /** How each consumer scenario configures KafkaConsumer. */
    enum ConsumerMode {
        /** About 1000 messages / 200 KB per fetch, as in the paper's consumer test. */
        FETCH_200K("consumer 200 KB fetch", Map.of("max.partition.fetch.bytes", "204800",
            "fetch.max.bytes", "204800", "max.poll.records", "1000")),
        /** KafkaConsumer's defaults (1 MiB per partition, 50 MiB per fetch, 500 records per poll). */
        DEFAULTS("consumer defaults", Map.of());

        final String label;
        final Map<String, String> config;

        ConsumerMode(String label, Map<String, String> config) {
            this.label = label;
            this.config = config;
        }
    }

    /**
     * One timed run: how many messages of {@link #MESSAGE_BYTES} in how long, and how they were
     * spread over that time ({@code timeline} may be null where nobody recorded it). For a producer,
     * {@code sendBlockedShare} is the share of the run its {@code send()} waited for buffer memory
     * (the producer's {@code bufferpool-wait-time-ns-total}): near 1, the sending thread outruns what
     * takes the batches away, so the rest of the pipeline sets the pace; NaN where not measured.
     */
    record Measurement(long records, double seconds, double recordsPerRequest, ThroughputTimeline timeline,
                       double sendBlockedShare) {

        Measurement(long records, double seconds, double recordsPerRequest) {
            this(records, seconds, recordsPerRequest, null);
        }

        Measurement(long records, double seconds, double recordsPerRequest, ThroughputTimeline timeline) {
            this(records, seconds, recordsPerRequest, timeline, Double.NaN);
        }

        double recordsPerSecond() {
            return records / seconds;
        }

        double megabytesPerSecond() {
            return records * (double) MESSAGE_BYTES / 1e6 / seconds;
        }
    }

    private Scenarios() {
    }

    static void createTopic(String bootstrap, String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(60, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                try {
                    TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
                    if (d.partitions().size() == 1 && d.partitions().get(0).leader() != null) {
                        return;
                    }
                } catch (java.util.concurrent.ExecutionException e) {
                    // metadata not there yet
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Topic " + topic + " has no leader after 60 s");
                }
                Thread.sleep(50);
            }
        }
    }

    /**
     * Deletes a topic a scenario is done with and waits until its broker has removed its files from
     * {@code logDir} (the brokers of the comparison keep deleted files for {@link #DELETE_DELAY_MS}).
     * A full run writes more than this machine's memory (10M tuned records are 2.1 GB a run): kept,
     * the logs of earlier cells filled the page cache and the kernel reclaimed pages during later
     * ones; removed by the brokers' default delay of a minute, the files went while a later scenario
     * was being measured.
     */
    static void deleteTopic(String bootstrap, String topic, Path logDir) throws Exception {
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            admin.deleteTopics(List.of(topic)).all().get(60, TimeUnit.SECONDS);
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (hasFilesOf(logDir, topic)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("The files of deleted topic " + topic + " are still in " + logDir + " after 60 s");
            }
            Thread.sleep(50);
        }
    }

    /** Whether {@code logDir} holds a partition directory of {@code topic}, live or marked deleted. */
    static boolean hasFilesOf(Path logDir, String topic) throws IOException {
        // a partition's directory is <topic>-<partition>, and <topic>-<partition>.<id>-delete once deleted;
        // matched whole, so that another topic whose name starts with this one's is not taken for it
        Pattern ofTopic = Pattern.compile(Pattern.quote(topic) + "-\\d+(\\..+-delete)?");
        try (Stream<Path> entries = Files.list(logDir)) {
            return entries.anyMatch(e -> ofTopic.matcher(e.getFileName().toString()).matches());
        }
    }

    /** Kafka's clients' send.buffer.bytes and receive.buffer.bytes, when not Kafka's defaults ({@code --kafka-socket-buffers}). */
    private static volatile Integer kafkaClientSocketBuffers;

    static void setKafkaClientSocketBuffers(Integer bytes) {
        kafkaClientSocketBuffers = bytes;
    }

    static void putSocketBuffers(Properties props) {
        Integer bytes = kafkaClientSocketBuffers;
        if (bytes != null) {
            props.put("send.buffer.bytes", bytes.toString());
            props.put("receive.buffer.bytes", bytes.toString());
        }
    }

    static Measurement produce(String bootstrap, String topic, ProducerMode mode, long count) throws Exception {
        Properties props = new Properties();
        putSocketBuffers(props);
        props.put("bootstrap.servers", bootstrap);
        props.put("key.serializer", ByteArraySerializer.class.getName());
        props.put("value.serializer", ByteArraySerializer.class.getName());
        props.put("acks", "1");
        props.put("enable.idempotence", "false");
        props.put("compression.type", "none");
        props.putAll(mode.config);
        byte[] value = new byte[MESSAGE_BYTES];
        new Random(42).nextBytes(value);
        AtomicReference<Exception> failure = new AtomicReference<>();
        AtomicLong acked = new AtomicLong();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            producer.partitionsFor(topic); // metadata outside the timing
            ThroughputTimeline timeline = timeline();
            long start = System.nanoTime();
            timeline.start();
            for (long i = 0; i < count && failure.get() == null; i++) {
                producer.send(new ProducerRecord<>(topic, 0, null, value), (md, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    } else {
                        if ((acked.incrementAndGet() & 63) == 0) { // a clock read per record would cost as much as the callback
                            timeline.add(64);
                        }
                    }
                });
            }
            producer.flush();
            double seconds = (System.nanoTime() - start) / 1e9;
            timeline.add(acked.get() & 63);
            timeline.stop();
            if (failure.get() != null) {
                throw new IllegalStateException(mode.label + " failed", failure.get());
            }
            if (acked.get() != count) {
                throw new IllegalStateException(mode.label + ": " + acked.get() + " of " + count + " acknowledged");
            }
            return new Measurement(count, seconds, metric(producer.metrics(), "producer-metrics", "records-per-request-avg"),
                timeline, metric(producer.metrics(), "producer-metrics", "bufferpool-wait-time-ns-total") / 1e9 / seconds);
        }
    }

    static Measurement consume(String bootstrap, String topic, ConsumerMode mode, long count) {
        Properties props = new Properties();
        putSocketBuffers(props);
        props.put("bootstrap.servers", bootstrap);
        props.put("key.deserializer", ByteArrayDeserializer.class.getName());
        props.put("value.deserializer", ByteArrayDeserializer.class.getName());
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.putAll(mode.config);
        TopicPartition tp = new TopicPartition(topic, 0);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, 0);
            long read = 0;
            long bytes = 0;
            ThroughputTimeline timeline = timeline();
            long start = System.nanoTime();
            timeline.start();
            long deadline = start + TimeUnit.MINUTES.toNanos(5);
            while (read < count) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(500));
                long before = read;
                for (ConsumerRecord<byte[], byte[]> r : records) {
                    if (r.offset() < count) { // the range [0, count) of a topic that may hold more
                        bytes += r.value().length;
                        read++;
                    }
                }
                timeline.add(read - before);
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(mode.label + ": read " + read + " of " + count + " in 5 minutes");
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            timeline.stop();
            if (read != count || bytes != count * MESSAGE_BYTES) {
                throw new IllegalStateException(mode.label + ": read " + read + " records, " + bytes + " bytes; expected " + count);
            }
            return new Measurement(read, seconds, metric(consumer.metrics(), "consumer-fetch-manager-metrics", "records-per-request-avg"),
                timeline);
        }
    }

    /**
     * Bytes of segment files ({@code *.log}) of partition 0 per message, minus the 200-byte
     * payload: the batch and record framing each broker stores. Indexes, preallocated to their
     * maximum size while a segment is active, are left out.
     */
    static double storageOverhead(Path logDir, String topic, long count) throws IOException {
        long bytes = 0;
        try (Stream<Path> files = Files.list(logDir.resolve(topic + "-0"))) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (p.getFileName().toString().endsWith(".log")) {
                    bytes += Files.size(p);
                }
            }
        }
        return bytes / (double) count - MESSAGE_BYTES;
    }

    static double metric(Map<MetricName, ? extends Metric> metrics, String group, String name) {
        Map<String, Double> found = new HashMap<>();
        metrics.forEach((k, v) -> {
            if (k.group().equals(group) && k.name().equals(name) && v.metricValue() instanceof Double d) {
                found.put(k.name(), d);
            }
        });
        return found.getOrDefault(name, Double.NaN);
    }
}
