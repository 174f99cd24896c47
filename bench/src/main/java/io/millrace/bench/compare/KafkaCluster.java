package io.millrace.bench.compare;

import io.millrace.testkit.FreePorts;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.Uuid;

/**
 * Apache Kafka nodes {@code 1..size} in KRaft mode: node 1 is the single voter of a static quorum
 * and a broker too (combined mode, as in the single-broker comparison), the others are brokers only.
 * All storage is formatted with one cluster id. Kafka's defaults otherwise.
 */
final class KafkaCluster extends BrokerCluster {

    KafkaCluster(int size, Path dataParent, Path logDir, String heap) {
        super(size, dataParent, logDir, heap);
    }

    @Override
    void startNodes() throws Exception {
        int controllerPort = FreePorts.loopback();
        List<KafkaClusterNode> kafkaNodes = new ArrayList<>();
        for (int id = 1; id <= size; id++) {
            KafkaClusterNode node = new KafkaClusterNode(id, id == 1, controllerPort, dataParent,
                processLog(BrokerComparison.KAFKA, id), heap);
            nodes.add(node);
            kafkaNodes.add(node);
        }
        format(kafkaNodes, Uuid.randomUuid().toString());
        // the brokers retry until the controller answers, so all may start at once
        for (KafkaClusterNode node : kafkaNodes) {
            node.start();
        }
        for (KafkaClusterNode node : kafkaNodes) {
            node.awaitListening();
        }
    }

    /** Formats every node's storage side by side (each is a JVM start), with one cluster id. */
    private static void format(List<KafkaClusterNode> nodes, String clusterId) throws Exception {
        List<Process> formats = new ArrayList<>();
        try {
            for (KafkaClusterNode node : nodes) {
                formats.add(node.format(clusterId));
            }
            for (int i = 0; i < formats.size(); i++) {
                Process format = formats.get(i);
                if (!format.waitFor(BrokerProcess.START_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || format.exitValue() != 0) {
                    throw new IllegalStateException("kafka-storage format failed; see " + nodes.get(i).processLog);
                }
            }
        } finally {
            formats.forEach(BrokerProcess::stop);
        }
    }
}
