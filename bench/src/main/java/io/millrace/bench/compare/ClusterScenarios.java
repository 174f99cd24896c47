package io.millrace.bench.compare;

import io.millrace.bench.compare.Scenarios.Measurement;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The scenarios that need clusters rather than one broker of each kind, with Kafka's producer on both
 * sides: 5 (scaling from 1 to 3 brokers) and 7 (replication on 3 brokers). For each cluster size a
 * cluster of each kind, both up at once so that the runs can alternate as everywhere else, each run
 * to a topic of its own. Scenario 7 runs on the clusters of 3 that scenario 5 ends with, when both
 * run: starting a pair of clusters costs more than both scenarios' runs at the quick scale.
 */
final class ClusterScenarios implements AutoCloseable {

    private final BrokerComparison bench;
    private final Path parent;
    /** The clusters up now, by side; empty between sizes. */
    private final Map<String, BrokerCluster> clusters = new LinkedHashMap<>();

    ClusterScenarios(BrokerComparison bench, Path parent) {
        this.bench = bench;
        this.parent = parent;
    }

    void runScaling() throws Exception {
        long perProducer = bench.count(BrokerComparison.SCALING_COUNT_PER_PRODUCER);
        for (int brokers : ScalingScenario.BROKER_COUNTS) {
            String scenario = "5. scaling, " + brokers + (brokers == 1 ? " broker" : " brokers") + ", 3 producers";
            System.err.println("bench: " + scenario);
            Map<String, BrokerCluster> pair = clustersOf(brokers);
            for (int run = 1; run <= bench.runs; run++) {
                for (String side : RunOrder.brokers(run)) {
                    BrokerCluster cluster = pair.get(side);
                    String topic = ScalingScenario.TOPIC + "-" + run;
                    cluster.createTopic(topic, ScalingScenario.PARTITIONS);
                    Measurement m = measure(cluster, side, topic, () -> ScalingScenario.produce(
                        cluster.bootstrapServers(), topic, ScalingScenario.PARTITIONS, ScalingScenario.PRODUCERS, perProducer));
                    record(scenario, side, run, m);
                }
            }
        }
    }

    /** Scenario 7: in each run, on each side in turn, the replicated topic and then the single-replica one. */
    void runReplication() throws Exception {
        long perProducer = bench.count(BrokerComparison.REPLICATION_COUNT_PER_PRODUCER);
        System.err.println("bench: 7. replication, " + ReplicationScenario.BROKERS + " brokers");
        Map<String, BrokerCluster> pair = clustersOf(ReplicationScenario.BROKERS);
        for (int run = 1; run <= bench.runs; run++) {
            for (String side : RunOrder.brokers(run)) {
                for (ReplicationScenario.Layout layout : ReplicationScenario.LAYOUTS) {
                    String topic = ReplicationScenario.TOPIC + "-" + layout.replicationFactor + "-" + run;
                    BrokerCluster cluster = pair.get(side);
                    Measurement m = measure(cluster, side, topic,
                        () -> ReplicationScenario.run(cluster, layout, topic, perProducer));
                    record(layout.scenario, side, run, m);
                }
            }
        }
    }

    /** A cluster of {@code brokers} of each kind, by side: the ones up now if they have that size, else new ones. */
    private Map<String, BrokerCluster> clustersOf(int brokers) throws Exception {
        if (!clusters.isEmpty() && clusters.values().iterator().next().size() == brokers) {
            return clusters;
        }
        close();
        for (String side : List.of(BrokerComparison.MILLRACE, BrokerComparison.KAFKA)) {
            clusters.put(side, BrokerCluster.start(side, brokers, parent, bench.out.resolve("logs"), bench.heap));
        }
        return clusters;
    }

    /** Stops the clusters up now, if any. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (BrokerCluster cluster : clusters.values()) {
            try {
                cluster.close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        clusters.clear();
        if (failure != null) {
            throw failure;
        }
    }

    /** A run's measurement; its failure names the side and the topic, and how the cluster then saw the topic. */
    private static Measurement measure(BrokerCluster cluster, String side, String topic, Callable<Measurement> run)
        throws Exception {
        try {
            return run.call();
        } catch (Exception e) {
            throw new IllegalStateException("The run on " + side + "'s cluster of " + cluster.size() + " failed; its topic "
                + topic + " then: " + cluster.describe(topic), e);
        }
    }

    private void record(String scenario, String side, int run, Measurement m) {
        Cell cell = Cell.of(BenchClient.KAFKA, side);
        bench.add(scenario, "records/s", true, cell, m.recordsPerSecond());
        bench.add(scenario, "MB/s", true, cell, m.megabytesPerSecond());
        System.err.printf(Locale.ROOT, "bench:   %s, run %d %s: %.0f records/s%n", scenario, run, side, m.recordsPerSecond());
    }
}
