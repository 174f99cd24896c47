package io.millrace.broker.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.TransactionOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * The ZooKeeper operations that create and delete a topic's partition state znodes
 * ({@code partitions/<p>/state} under the topic znode, see {@link ClusterPaths}), for the
 * controller's transactions. A ZooKeeper multi is limited in size (about 1 MB), so a topic with
 * many partitions has them written {@value #PARTITIONS_PER_TRANSACTION} at a time; until its
 * state znode exists a partition reads as {@link PartitionState#initial}, which is what is written.
 */
final class TopicZnodes {

    /** Partitions whose state znodes one transaction creates or deletes: two znodes each, about 200 bytes. */
    static final int PARTITIONS_PER_TRANSACTION = 500;

    private TopicZnodes() {
    }

    /** Creates {@code /partitions/<p>} and its state znode, with the initial state, for each partition of {@code replicas}. */
    static List<CuratorOp> createStates(CuratorFramework client, String topic, Map<Integer, List<Integer>> replicas) {
        TransactionOp op = client.transactionOp();
        List<CuratorOp> ops = new ArrayList<>(2 * replicas.size());
        replicas.forEach((partition, ids) -> {
            try {
                ops.add(op.create().withMode(CreateMode.PERSISTENT).forPath(ClusterPaths.partition(topic, partition)));
                ops.add(op.create().withMode(CreateMode.PERSISTENT).forPath(ClusterPaths.partitionState(topic, partition),
                    ClusterJson.partitionState(ids.get(0), 0, ids)));
            } catch (Exception e) {
                throw new IllegalStateException("Cannot build the creation of " + topic + "-" + partition, e);
            }
        });
        return ops;
    }

    static CuratorOp createPartitionsDirectory(CuratorFramework client, String topic) throws Exception {
        return client.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(ClusterPaths.partitions(topic));
    }

    /**
     * Deletes every partition directory and state znode under the topic, deepest first, and the
     * {@code partitions} directory; empty for a topic written before replication, which has none.
     */
    static List<CuratorOp> deleteStates(CuratorFramework client, String topic) throws Exception {
        List<String> partitions;
        try {
            partitions = client.getChildren().forPath(ClusterPaths.partitions(topic));
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
        TransactionOp op = client.transactionOp();
        List<CuratorOp> ops = new ArrayList<>(2 * partitions.size() + 1);
        for (String partition : partitions) {
            String directory = ClusterPaths.partitions(topic) + "/" + partition;
            for (String child : client.getChildren().forPath(directory)) {
                ops.add(op.delete().forPath(directory + "/" + child));
            }
            ops.add(op.delete().forPath(directory));
        }
        ops.add(op.delete().forPath(ClusterPaths.partitions(topic)));
        return ops;
    }

    /** {@code ops} cut into transactions of at most {@value #PARTITIONS_PER_TRANSACTION} partitions' worth. */
    static List<List<CuratorOp>> chunks(List<CuratorOp> ops) {
        int size = 2 * PARTITIONS_PER_TRANSACTION;
        List<List<CuratorOp>> chunks = new ArrayList<>();
        for (int from = 0; from < ops.size(); from += size) {
            chunks.add(ops.subList(from, Math.min(ops.size(), from + size)));
        }
        return chunks;
    }
}
