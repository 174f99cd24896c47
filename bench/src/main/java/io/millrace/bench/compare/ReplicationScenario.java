package io.millrace.bench.compare;

import io.millrace.bench.compare.Scenarios.Measurement;
import java.util.List;
import java.util.Map;

/**
 * Scenario 7, the cost of replication: a cluster of {@value #BROKERS} brokers of each kind, a topic of
 * {@value #PARTITIONS} partitions placed by the cluster's own assignment, and {@value #PRODUCERS}
 * producer threads, each its own KafkaProducer with the tuned settings of scenario 5 and
 * {@code acks=all} with idempotence (Kafka's producer default), each sending the same number of
 * 200-byte records round-robin over the partitions. Measured twice per run: with every partition on
 * three brokers and {@code min.insync.replicas=2} (an acknowledgement waits for the in-sync followers
 * to fetch the batch), and with one replica (the same producer settings, no followers), whose ratio
 * is the cost of replication on each broker.
 */
final class ReplicationScenario {

    static final int BROKERS = 3;
    static final int PARTITIONS = 6;
    static final int PRODUCERS = 3;
    static final String TOPIC = "replicated";
    /** What the producers send with, over the tuned settings: Kafka's defaults for durability. */
    static final Map<String, String> PRODUCER_SETTINGS = Map.of("acks", "all", "enable.idempotence", "true");

    /** A topic layout measured: its replication factor and settings, and the figure's name. */
    enum Layout {
        REPLICATED(3, Map.of("min.insync.replicas", "2"), "7. replication factor 3, min.insync.replicas 2, acks=all"),
        SINGLE(1, Map.of(), "7. replication factor 1, acks=all");

        final int replicationFactor;
        final Map<String, String> topicConfigs;
        final String scenario;

        Layout(int replicationFactor, Map<String, String> topicConfigs, String scenario) {
            this.replicationFactor = replicationFactor;
            this.topicConfigs = topicConfigs;
            this.scenario = scenario;
        }
    }

    /** The layouts in the order a run measures them. */
    static final List<Layout> LAYOUTS = List.of(Layout.REPLICATED, Layout.SINGLE);

    private ReplicationScenario() {
    }

    /** Creates {@code topic} on {@code cluster} with {@code layout} and sends {@code countPerProducer} records per producer to it. */
    static Measurement run(BrokerCluster cluster, Layout layout, String topic, long countPerProducer) throws Exception {
        cluster.createTopic(topic, PARTITIONS, layout.replicationFactor, layout.topicConfigs);
        return ScalingScenario.produce(cluster.bootstrapServers(), topic, PARTITIONS, PRODUCERS, countPerProducer,
            PRODUCER_SETTINGS);
    }
}
