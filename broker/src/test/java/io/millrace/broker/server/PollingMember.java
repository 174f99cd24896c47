package io.millrace.broker.server;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A member of a Kafka consumer group polling on its own thread as a Kafka user would write it:
 * each batch is processed (its values counted in a map shared by the group's members), then
 * committed with commitSync; partitions being revoked are committed in onPartitionsRevoked, so
 * the member taking them over starts after what was processed here.
 */
final class PollingMember implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PollingMember.class);

    private final KafkaConsumer<byte[], byte[]> consumer;
    private final Map<String, AtomicInteger> reads;
    private final Set<TopicPartition> assigned = ConcurrentHashMap.newKeySet();
    private final AtomicInteger read = new AtomicInteger();
    private final AtomicInteger assignments = new AtomicInteger();
    private final Thread thread;
    private volatile boolean running = true;

    /** Subscribes to {@code topic} with {@code props} (group.id and the rest) and starts polling. */
    PollingMember(Properties props, String topic, String name, Map<String, AtomicInteger> reads) {
        this.reads = reads;
        Properties all = new Properties();
        all.putAll(props);
        all.put("client.id", name);
        all.put("enable.auto.commit", "false");
        consumer = new KafkaConsumer<>(all, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        consumer.subscribe(List.of(topic), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                if (!partitions.isEmpty()) {
                    consumer.commitSync();
                }
                assigned.removeAll(partitions);
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                assignments.incrementAndGet();
                assigned.addAll(partitions);
            }

            @Override
            public void onPartitionsLost(Collection<TopicPartition> partitions) {
                // taken over by another member already: nothing can be committed for them
                assigned.removeAll(partitions);
            }
        });
        thread = new Thread(this::run, name);
        thread.start();
    }

    /** The partitions it owns now. */
    Set<TopicPartition> assigned() {
        return Set.copyOf(assigned);
    }

    /** How many assignments it has been handed (each rebalance it takes part in hands one). */
    int assignments() {
        return assignments.get();
    }

    /** How many records it has read. */
    int read() {
        return read.get();
    }

    private void run() {
        try {
            while (running) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                    reads.computeIfAbsent(new String(r.value(), StandardCharsets.UTF_8), v -> new AtomicInteger())
                        .incrementAndGet();
                    read.incrementAndGet();
                }
                try {
                    consumer.commitSync();
                } catch (RebalanceInProgressException rebalancing) {
                    // as Kafka documents: poll to complete the rebalance (onPartitionsRevoked commits)
                }
            }
        } catch (WakeupException stopping) {
            // close() below
        } catch (RuntimeException e) {
            LOG.error("Member {} failed", thread.getName(), e);
        } finally {
            consumer.close(Duration.ofSeconds(5));
        }
    }

    /** Leaves the group: stops polling and closes the consumer, which sends LeaveGroup. */
    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(15_000);
    }
}
