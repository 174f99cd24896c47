package io.millrace.bench.compare;

import io.millrace.common.serialization.ByteArraySerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.PartitionReader;
import io.millrace.producer.MillraceProducer;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Scenario 3: end-to-end latency at a fixed send rate. A producer sends 200-byte messages at
 * {@code rate} per second for {@code count} messages, each carrying its sequence number in its
 * first 4 bytes; a consumer in the same JVM, positioned at the start of the partition before the
 * first send, notes when its poll (or iterator) hands each message over, and the latency is that
 * less the time of the message's {@code send()} ({@link MessageTimes}). Each message's
 * acknowledgement is timed too, so the tail can be split between the produce path and the fetch
 * path; the stages also count this JVM's collections ({@link GcPauses}), its longest stall
 * ({@link Hiccups}) and the host's steal of the vCPUs ({@link HostSteal}). Both clients run with
 * acks=1 and {@code linger.ms=0}, their defaults otherwise, unless the caller names other producer
 * settings (at high rates, the tuned producer's: with 16 KB batches and one at a time neither
 * producer keeps up with half its tuned maximum, and the latency measured would be that of a
 * growing queue).
 *
 * <p>The producer keeps to a schedule: message {@code i} is due at {@code start + i / rate}; it
 * parks until the next message is due and sends everything due at once when it wakes late, so a
 * slow moment shows up as latency rather than as a lower rate. Latency is measured from the actual
 * {@code send()} call, so time the producer spends behind schedule is not counted (the rates here
 * are well below what either producer sustains).
 */
final class EndToEndLatency {

    /** Percentiles and the clients' own view of where the time went, in milliseconds. */
    record Result(long messages, double p50, double p99, double p999, double max, Map<String, Double> stages) {

        /** The host's steal in the run and the p99 away from it, for the progress line; empty if not measured. */
        String stealNote() {
            Double stolen = stages.get(HOST_STEAL_STAGE);
            Double away = stages.get(P99_AWAY_FROM_STEAL_STAGE);
            return stolen == null ? "" : String.format(Locale.ROOT, "; host's steal %.0f ms, p99 away from it %.2f ms",
                stolen, away);
        }
    }

    /** The stage naming the host's steal in a run, on all vCPUs. */
    static final String HOST_STEAL_STAGE = "host's steal ms (all vCPUs)";
    /** The stage naming the p99 of the messages away from the host's steal. */
    static final String P99_AWAY_FROM_STEAL_STAGE = "p99 away from the host's steal ms";

    private static final Duration TIMEOUT = Duration.ofMinutes(3);

    private EndToEndLatency() {
    }

    static Result run(BenchClient client, String bootstrap, String topic, double rate, long count,
                      Map<String, String> producerSettings) throws Exception {
        MessageTimes times = new MessageTimes(Math.toIntExact(count));
        Map<String, Double> stages = new LinkedHashMap<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch positioned = new CountDownLatch(1);
        Thread consumer = new Thread(() -> {
            try {
                if (client == BenchClient.KAFKA) {
                    consumeWithKafka(bootstrap, topic, times, positioned, stages);
                } else {
                    consumeWithMillrace(bootstrap, topic, times, positioned);
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
                positioned.countDown();
            }
        }, "e2e-consumer");
        consumer.setDaemon(true);
        consumer.start();
        if (!positioned.await(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the end-to-end consumer did not start");
        }
        HostSteal steal = HostSteal.start();
        try (GcPauses pauses = new GcPauses(); Hiccups hiccups = Hiccups.start(); steal) {
            if (failure.get() == null) {
                if (client == BenchClient.KAFKA) {
                    produceWithKafka(bootstrap, topic, rate, times, producerSettings, stages);
                } else {
                    produceWithMillrace(bootstrap, topic, rate, times, producerSettings, stages);
                }
            }
            consumer.join(TIMEOUT.toMillis());
            stages.put("clients' GC pauses", (double) pauses.count());
            stages.put("clients' GC paused ms", (double) pauses.totalMillis());
            stages.put("clients' longest GC pause ms", (double) pauses.longestMillis());
            stages.put("clients' longest hiccup ms", hiccups.longestMillis());
        }
        if (failure.get() != null) {
            throw new IllegalStateException("end-to-end run on " + topic + " failed", failure.get());
        }
        if (consumer.isAlive()) {
            consumer.interrupt();
            throw new IllegalStateException("end-to-end run on " + topic + ": not every message arrived within " + TIMEOUT);
        }
        long[] latencies = times.endToEnd();
        stages.put("p99 send to acknowledged ms", percentileMs(times.sendToAcknowledged(), 0.99));
        stages.put("p99 acknowledged to received ms", percentileMs(times.acknowledgedToReceived(), 0.99));
        addSteal(stages, steal, times, latencies);
        return new Result(count, percentileMs(latencies, 0.50), percentileMs(latencies, 0.99),
            percentileMs(latencies, 0.999), latencies[latencies.length - 1] / 1e6, stages);
    }

    /**
     * The host's steal in the run and the p99 of the messages away from it ({@link HostSteal#near}),
     * so that a tail the host made can be told from one the stack made; both stacks are measured
     * the same way, and the p99 of every message stays the run's figure. A short run with every
     * message near a steal (100 % near) gives the p99 of all of them, not an empty figure.
     */
    private static void addSteal(Map<String, Double> stages, HostSteal steal, MessageTimes times, long[] latencies) {
        if (!steal.measured()) {
            return;
        }
        stages.put(HOST_STEAL_STAGE, steal.stolenMillis());
        stages.put("host's longest steal ms (one vCPU)", steal.longestStealMillis());
        long[] away = times.endToEndExcept(steal::near);
        stages.put("messages near the host's steal %", 100.0 * (latencies.length - away.length) / latencies.length);
        stages.put(P99_AWAY_FROM_STEAL_STAGE, percentileMs(away.length == 0 ? latencies : away, 0.99));
    }

    /** The nearest-rank percentile of sorted nanosecond values, in milliseconds. */
    static double percentileMs(long[] sortedNanos, double quantile) {
        int rank = (int) Math.ceil(quantile * sortedNanos.length);
        return sortedNanos[Math.max(0, Math.min(sortedNanos.length, rank) - 1)] / 1e6;
    }

    // ---- producers ----------------------------------------------------------------------------

    /** Sends message {@code sequence}, whose acknowledgement is to be noted in {@link MessageTimes#acknowledged}. */
    private interface Sender {
        void send(byte[] value, int sequence);
    }

    private static void paced(double rate, MessageTimes times, Sender sender) {
        long start = System.nanoTime();
        double intervalNanos = 1e9 / rate;
        for (int i = 0; i < times.count(); i++) {
            long due = start + (long) (i * intervalNanos);
            long wait = due - System.nanoTime();
            if (wait > 0) {
                LockSupport.parkNanos(wait);
            }
            byte[] value = new byte[Scenarios.MESSAGE_BYTES];
            ByteBuffer.wrap(value).putInt(i);
            times.sent(i);
            sender.send(value, i);
        }
    }

    private static void produceWithKafka(String bootstrap, String topic, double rate, MessageTimes times,
                                         Map<String, String> settings, Map<String, Double> stages) throws Exception {
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.put("key.serializer", org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
        props.put("value.serializer", org.apache.kafka.common.serialization.ByteArraySerializer.class.getName());
        props.put("acks", "1");
        props.put("linger.ms", "0");
        props.put("enable.idempotence", "false");
        Scenarios.putSocketBuffers(props);
        props.putAll(settings);
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            producer.partitionsFor(topic);
            paced(rate, times, (value, sequence) -> producer.send(
                new org.apache.kafka.clients.producer.ProducerRecord<>(topic, 0, null, value),
                (md, e) -> acknowledged(times, sequence, e, failure)));
            producer.flush();
            var metrics = producer.metrics();
            double metadataWait = Scenarios.metric(metrics, "producer-metrics", "metadata-wait-time-ns-total");
            stages.put("send blocked ms/message", (Scenarios.metric(metrics, "producer-metrics", "bufferpool-wait-time-ns-total")
                + (Double.isNaN(metadataWait) ? 0 : metadataWait)) / 1e6 / times.count());
            stages.put("buffered ms (record-queue-time-avg)", Scenarios.metric(metrics, "producer-metrics", "record-queue-time-avg"));
            stages.put("produce request ms (request-latency-avg)", Scenarios.metric(metrics, "producer-metrics", "request-latency-avg"));
            stages.put("longest buffered ms (record-queue-time-max)", Scenarios.metric(metrics, "producer-metrics", "record-queue-time-max"));
            stages.put("longest produce request ms (request-latency-max)", Scenarios.metric(metrics, "producer-metrics", "request-latency-max"));
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    private static void produceWithMillrace(String bootstrap, String topic, double rate, MessageTimes times,
                                            Map<String, String> settings, Map<String, Double> stages) throws Exception {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", bootstrap);
        props.put("acks", "1");
        props.put("linger.ms", "0");
        props.putAll(settings);
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (MillraceProducer<byte[], byte[]> producer = new MillraceProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.partitionsFor(topic);
            paced(rate, times, (value, sequence) -> producer.send(
                new io.millrace.producer.ProducerRecord<>(topic, 0, null, value),
                (md, e) -> acknowledged(times, sequence, e, failure)));
            producer.flush();
            stages.put("send blocked ms/message", number(producer.metrics().value("send-block-time-ns-total")) / 1e6 / times.count());
            stages.put("buffered ms (record-queue-time-avg)", number(producer.metrics().value("record-queue-time-avg")));
            stages.put("produce request ms (request-latency-avg)", number(producer.metrics().value("request-latency-avg")));
            stages.put("longest buffered ms (record-queue-time-max)", number(producer.metrics().value("record-queue-time-max")));
            stages.put("longest produce request ms (request-latency-max)", number(producer.metrics().value("request-latency-max")));
        }
        if (failure.get() != null) {
            throw failure.get();
        }
    }

    private static void acknowledged(MessageTimes times, int sequence, Exception e, AtomicReference<Exception> failure) {
        if (e != null) {
            failure.compareAndSet(null, e);
        } else {
            times.acknowledged(sequence);
        }
    }

    private static double number(Object value) {
        return value instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    // ---- consumers ----------------------------------------------------------------------------

    private static void consumeWithKafka(String bootstrap, String topic, MessageTimes times, CountDownLatch positioned,
                                         Map<String, Double> stages) {
        Properties props = new Properties();
        props.put("bootstrap.servers", bootstrap);
        props.put("key.deserializer", ByteArrayDeserializer.class.getName());
        props.put("value.deserializer", ByteArrayDeserializer.class.getName());
        props.put("enable.auto.commit", "false");
        Scenarios.putSocketBuffers(props);
        TopicPartition tp = new TopicPartition(topic, 0);
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            consumer.assign(List.of(tp));
            consumer.seek(tp, 0);
            consumer.poll(Duration.ofMillis(100)); // connected and fetching before the first send
            positioned.countDown();
            int received = 0;
            while (received < times.count() && System.nanoTime() < deadline) {
                ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
                long now = System.nanoTime();
                for (var r : records) {
                    times.received(ByteBuffer.wrap(r.value()).getInt(), now);
                    received++;
                }
            }
            stages.put("fetch request ms (fetch-latency-avg)",
                Scenarios.metric(consumer.metrics(), "consumer-fetch-manager-metrics", "fetch-latency-avg"));
            checkAll(received, times.count());
        }
    }

    private static void consumeWithMillrace(String bootstrap, String topic, MessageTimes times, CountDownLatch positioned) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", bootstrap);
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(props))) {
            reader.partitionCount(topic);
            Iterator<ConsumerRecord<byte[], byte[]>> records =
                reader.read(new io.millrace.common.TopicPartition(topic, 0), 0, times.count());
            positioned.countDown(); // the first fetch goes out in hasNext() and waits for the first message
            int received = 0;
            while (records.hasNext()) {
                byte[] value = records.next().value();
                times.received(ByteBuffer.wrap(value).getInt(), System.nanoTime());
                received++;
            }
            checkAll(received, times.count());
        }
    }

    private static void checkAll(int received, int expected) {
        if (received != expected) {
            throw new IllegalStateException("received " + received + " of " + expected + " messages");
        }
    }
}
