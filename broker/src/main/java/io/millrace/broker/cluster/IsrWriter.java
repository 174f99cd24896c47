package io.millrace.broker.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.TransactionOp;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The leader's side of a partition's state znode: it alone shrinks and expands the in-sync
 * replicas, and only with a write conditional on the znode version it last read, so that a
 * concurrent election (the controller's write) always wins. A leader whose write loses reads the
 * state again ({@link #read}) and retries only if it still leads in the same epoch.
 *
 * <p>Blocks for ZooKeeper round trips: call it off request threads. Thread-safe.
 */
public final class IsrWriter {

    private final CuratorFramework client;

    public IsrWriter(CuratorFramework client) {
        this.client = client;
    }

    /**
     * Writes {@code isr}, keeping {@code current}'s leader and epoch, if the state znode is still at
     * {@code current.zkVersion()} (or, for {@link PartitionState#NO_ZNODE}, still absent).
     *
     * @return the state written, with its new version; empty when the znode changed meanwhile
     * @throws Exception a ZooKeeper failure that outlasted Curator's retries
     */
    public Optional<PartitionState> updateIsr(String topic, int partition, PartitionState current, List<Integer> isr)
        throws Exception {
        if (current.leader() == ClusterSnapshot.NO_LEADER) {
            throw new IllegalArgumentException("Partition " + topic + "-" + partition + " has no leader to change its ISR");
        }
        if (!current.replicas().containsAll(isr) || !isr.contains(current.leader())) {
            throw new IllegalArgumentException("ISR " + isr + " of " + topic + "-" + partition + " must hold the leader "
                + current.leader() + " and only replicas " + current.replicas());
        }
        byte[] data = ClusterJson.partitionState(current.leader(), current.leaderEpoch(), isr);
        try {
            int version = current.hasZnode() ? setData(topic, partition, current.zkVersion(), data) : create(topic, partition, data);
            return Optional.of(new PartitionState(current.replicas(), current.leader(), current.leaderEpoch(), isr, version));
        } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException | KeeperException.NoNodeException e) {
            return Optional.empty();
        }
    }

    /**
     * The partition's state as ZooKeeper holds it now (the metadata cache may lag behind), with the
     * replica list {@code replicas}; {@link PartitionState#initial} when it has no state znode, empty
     * when its topic is gone.
     */
    public Optional<PartitionState> read(String topic, int partition, List<Integer> replicas) throws Exception {
        Stat stat = new Stat();
        try {
            byte[] data = client.getData().storingStatIn(stat).forPath(ClusterPaths.partitionState(topic, partition));
            return Optional.of(ClusterJson.parsePartitionState(data, stat.getVersion()).withReplicas(replicas));
        } catch (KeeperException.NoNodeException e) {
            return client.checkExists().forPath(ClusterPaths.topic(topic)) == null ? Optional.empty()
                : Optional.of(PartitionState.initial(replicas));
        }
    }

    private int setData(String topic, int partition, int version, byte[] data) throws Exception {
        return client.setData().withVersion(version).forPath(ClusterPaths.partitionState(topic, partition), data).getVersion();
    }

    /** For a topic written before replication: the state znode and the directories above it, in one transaction. */
    private int create(String topic, int partition, byte[] data) throws Exception {
        client.transaction().forOperations(createStateOps(client, topic, partition, data));
        return 0;
    }

    /** The ops creating a partition's state znode and whichever of its parent directories are missing. */
    static List<CuratorOp> createStateOps(CuratorFramework client, String topic, int partition, byte[] data) throws Exception {
        TransactionOp op = client.transactionOp();
        List<CuratorOp> ops = new ArrayList<>();
        if (client.checkExists().forPath(ClusterPaths.partitions(topic)) == null) {
            ops.add(op.create().withMode(CreateMode.PERSISTENT).forPath(ClusterPaths.partitions(topic)));
        }
        if (client.checkExists().forPath(ClusterPaths.partition(topic, partition)) == null) {
            ops.add(op.create().withMode(CreateMode.PERSISTENT).forPath(ClusterPaths.partition(topic, partition)));
        }
        ops.add(op.create().withMode(CreateMode.PERSISTENT).forPath(ClusterPaths.partitionState(topic, partition), data));
        return ops;
    }
}
