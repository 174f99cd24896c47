package io.millrace.bench.compare;

import io.millrace.bench.compare.Scenarios.Measurement;
import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.ByteArraySerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.PartitionReader;
import io.millrace.consumer.RecordView;
import io.millrace.consumer.RecordViews;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.Producer;
import io.millrace.producer.ProducerRecord;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * The producer and consumer scenarios of {@link Scenarios}, run with Millrace's own clients and the
 * same settings (Kafka's names mean the same in both), so the two clients can be compared against
 * one broker. The consumer reads with {@link PartitionReader}'s view API ({@link RecordView}s over
 * the fetched bytes), not with its copying {@code read}: see {@link #consume}.
 */
final class MillraceClients {

    private MillraceClients() {
    }

    static Measurement produce(String bootstrap, String topic, Scenarios.ProducerMode mode, long count) throws Exception {
        return produce(bootstrap, topic, mode, count, UnaryOperator.identity());
    }

    /**
     * As {@link #produce(String, String, Scenarios.ProducerMode, long)}, every record sent through the
     * producer {@code wrap} makes of Millrace's, e.g. the audit's counting decorator.
     */
    static Measurement produce(String bootstrap, String topic, Scenarios.ProducerMode mode, long count,
                               UnaryOperator<Producer<byte[], byte[]>> wrap) throws Exception {
        Map<String, Object> props = new HashMap<>(mode.config);
        props.put("bootstrap.servers", bootstrap);
        props.put("acks", "1");
        props.put("compression.type", "none");
        byte[] value = new byte[Scenarios.MESSAGE_BYTES];
        new Random(42).nextBytes(value);
        AtomicReference<Exception> failure = new AtomicReference<>();
        AtomicLong acked = new AtomicLong();
        try (MillraceProducer<byte[], byte[]> millrace = new MillraceProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            Producer<byte[], byte[]> producer = wrap.apply(millrace);
            producer.partitionsFor(topic); // metadata outside the timing
            ThroughputTimeline timeline = Scenarios.timeline();
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
                throw new IllegalStateException("Millrace " + mode.label + " failed", failure.get());
            }
            if (acked.get() != count) {
                throw new IllegalStateException("Millrace " + mode.label + ": " + acked.get() + " of " + count + " acknowledged");
            }
            return new Measurement(count, seconds, metric(millrace, "records-per-request-avg"), timeline,
                metric(millrace, "bufferpool-wait-time-ns-total") / 1e9 / seconds);
        }
    }

    private static double metric(MillraceProducer<?, ?> producer, String name) {
        Object value = producer.metrics().value(name);
        return value instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /**
     * Reads offsets {@code [0, count)} of partition 0 with {@link PartitionReader}, the standalone
     * reader, through its view API ({@link PartitionReader#readViews}) as a reader of bytes would: each
     * record is a {@link RecordView} over the fetched bytes, no value copied. Every record is read and
     * every value's length and position are taken (Kafka's side gets each value as a copied
     * {@code byte[]} and takes its length).
     */
    static Measurement consume(String bootstrap, String topic, Scenarios.ConsumerMode mode, long count) {
        Map<String, Object> props = new HashMap<>(mode.config);
        props.remove("max.poll.records");
        props.put("bootstrap.servers", bootstrap);
        long read = 0;
        long bytes = 0;
        long positions = 0;
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(props))) {
            reader.partitionCount(topic); // metadata outside the timing
            ThroughputTimeline timeline = Scenarios.timeline();
            long start = System.nanoTime();
            timeline.start();
            RecordViews records = reader.readViews(new TopicPartition(topic, 0), 0, count);
            while (records.advance()) {
                RecordView record = records.current();
                bytes += record.valueLength();
                positions += record.valuePosition();
                read++;
                if ((read & 255) == 0) { // per record would cost more than the reading
                    timeline.add(256);
                }
            }
            timeline.add(read & 255);
            double seconds = (System.nanoTime() - start) / 1e9;
            timeline.stop();
            if (read != count || bytes != count * Scenarios.MESSAGE_BYTES || positions <= 0) {
                throw new IllegalStateException("Millrace " + mode.label + ": read " + read + " records, " + bytes
                    + " bytes; expected " + count);
            }
            return new Measurement(read, seconds, Double.NaN, timeline);
        }
    }
}
