package io.millrace.broker.server;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RebalanceInProgressException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A Kafka consumer group member in a process of its own, so a test can kill it: nothing closes
 * its consumer, its heartbeats just stop. It reads as {@link PollingMember} does and tells the test
 * on standard output each value it processed ({@value #READ} value) and how many partitions it
 * owns ({@value #OWNS} n). Arguments: bootstrap servers, group, topic, assignor class, client id,
 * session timeout ms.
 */
public final class ChildGroupMember {

    static final String READ = "READ ";
    static final String OWNS = "OWNS ";

    private ChildGroupMember() {
    }

    public static void main(String[] args) {
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
        Properties props = new Properties();
        props.put("bootstrap.servers", args[0]);
        props.put("group.id", args[1]);
        props.put("partition.assignment.strategy", args[3]);
        props.put("client.id", args[4]);
        props.put("session.timeout.ms", args[5]);
        props.put("heartbeat.interval.ms", "200");
        props.put("enable.auto.commit", "false");
        props.put("auto.offset.reset", "earliest");
        props.put("max.poll.records", "50");
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
        Set<TopicPartition> owned = new HashSet<>();
        consumer.subscribe(List.of(args[2]), new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                if (!partitions.isEmpty()) {
                    consumer.commitSync();
                }
                owned.removeAll(partitions);
                out.println(OWNS + owned.size());
            }

            @Override
            public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                owned.addAll(partitions);
                out.println(OWNS + owned.size());
            }
        });
        while (true) {
            for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(100))) {
                out.println(READ + new String(r.value(), StandardCharsets.UTF_8));
            }
            try {
                consumer.commitSync();
            } catch (RebalanceInProgressException rebalancing) {
                // poll completes the rebalance; onPartitionsRevoked commits
            }
        }
    }
}
