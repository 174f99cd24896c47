package io.millrace.bench.compare;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Millrace brokers {@code 0..size-1} registered in one standalone ZooKeeper, which runs in broker
 * 0's JVM (as Kafka's single controller runs in its first node's). Broker defaults otherwise, as in
 * the single-broker comparison.
 */
final class MillraceCluster extends BrokerCluster {

    MillraceCluster(int size, Path dataParent, Path logDir, String heap) {
        super(size, dataParent, logDir, heap);
    }

    @Override
    void startNodes() throws Exception {
        MillraceClusterNode first = node(0, null);
        first.start();
        first.awaitReady();
        // the others only need ZooKeeper, so they start side by side
        List<MillraceClusterNode> others = new ArrayList<>();
        for (int id = 1; id < size; id++) {
            MillraceClusterNode node = node(id, first.zookeeperConnect());
            node.start();
            others.add(node);
        }
        for (MillraceClusterNode node : others) {
            node.awaitReady();
        }
    }

    /** A node, added to {@link #nodes} before it starts so that {@link #close()} always stops it. */
    private MillraceClusterNode node(int brokerId, String zookeeperConnect) throws Exception {
        MillraceClusterNode node = new MillraceClusterNode(brokerId, zookeeperConnect, dataParent,
            processLog(BrokerComparison.MILLRACE, brokerId), heap);
        nodes.add(node);
        return node;
    }
}
