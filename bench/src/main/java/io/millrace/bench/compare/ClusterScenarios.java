package io.millrace.bench.compare;

import io.millrace.bench.compare.Scenarios.Measurement;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * The scenarios that need clusters rather than one broker of each kind, with Kafka's producer on both
 * sides: 5 (scaling from 1 to 3 brokers) and 7 (replication on 3 brokers). For each cluster size a
 * cluster of each kind, both up at once so that the runs can alternate as everywhere else, each run
 * to a topic of its own.
 */
final class ClusterScenarios {

    private final BrokerComparison bench;
    private final Path parent;

    ClusterScenarios(BrokerComparison bench, Path parent) {
        this.bench = bench;
        this.parent = parent;
    }

    void runScaling() throws Exception {
        long perProducer = bench.count(BrokerComparison.SCALING_COUNT_PER_PRODUCER);
        for (int brokers : ScalingScenario.BROKER_COUNTS) {
            String scenario = "5. scaling, " + brokers + (brokers == 1 ? " broker" : " brokers") + ", 3 producers";
            System.err.println("bench: " + scenario);
            try (BrokerCluster millrace = start(BrokerComparison.MILLRACE, brokers);
                 BrokerCluster kafka = start(BrokerComparison.KAFKA, brokers)) {
                Map<String, BrokerCluster> clusters = Map.of(BrokerComparison.MILLRACE, millrace, BrokerComparison.KAFKA, kafka);
                for (int run = 1; run <= bench.runs; run++) {
                    for (String side : RunOrder.brokers(run)) {
                        BrokerCluster cluster = clusters.get(side);
                        String topic = ScalingScenario.TOPIC + "-" + run;
                        cluster.createTopic(topic, ScalingScenario.PARTITIONS);
                        Measurement m = ScalingScenario.produce(cluster.bootstrapServers(), topic, ScalingScenario.PARTITIONS,
                            ScalingScenario.PRODUCERS, perProducer);
                        record(scenario, side, run, m);
                    }
                }
            }
        }
    }

    /** Scenario 7: in each run, on each side in turn, the replicated topic and then the single-replica one. */
    void runReplication() throws Exception {
        long perProducer = bench.count(BrokerComparison.REPLICATION_COUNT_PER_PRODUCER);
        System.err.println("bench: 7. replication, " + ReplicationScenario.BROKERS + " brokers");
        try (BrokerCluster millrace = start(BrokerComparison.MILLRACE, ReplicationScenario.BROKERS);
             BrokerCluster kafka = start(BrokerComparison.KAFKA, ReplicationScenario.BROKERS)) {
            Map<String, BrokerCluster> clusters = Map.of(BrokerComparison.MILLRACE, millrace, BrokerComparison.KAFKA, kafka);
            for (int run = 1; run <= bench.runs; run++) {
                for (String side : RunOrder.brokers(run)) {
                    for (ReplicationScenario.Layout layout : ReplicationScenario.LAYOUTS) {
                        String topic = ReplicationScenario.TOPIC + "-" + layout.replicationFactor + "-" + run;
                        Measurement m = ReplicationScenario.run(clusters.get(side), layout, topic, perProducer);
                        record(layout.scenario, side, run, m);
                    }
                }
            }
        }
    }

    private BrokerCluster start(String side, int brokers) throws Exception {
        return BrokerCluster.start(side, brokers, parent, bench.out.resolve("logs"), bench.heap);
    }

    private void record(String scenario, String side, int run, Measurement m) {
        Cell cell = Cell.of(BenchClient.KAFKA, side);
        bench.add(scenario, "records/s", true, cell, m.recordsPerSecond());
        bench.add(scenario, "MB/s", true, cell, m.megabytesPerSecond());
        System.err.printf(Locale.ROOT, "bench:   %s, run %d %s: %.0f records/s%n", scenario, run, side, m.recordsPerSecond());
    }
}
