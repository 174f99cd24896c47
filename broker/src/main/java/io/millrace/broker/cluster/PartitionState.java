package io.millrace.broker.cluster;

import java.util.List;

/**
 * One partition's replicas and leadership as this broker's metadata last saw them: the replica
 * list from the topic znode (first = preferred leader) and the leader, leader epoch and in-sync
 * replicas from {@code /millrace/topics/<t>/partitions/<p>/state}. Immutable.
 *
 * <p>A partition whose state znode does not exist (a topic written before replication, or one
 * whose state the controller has not written yet) reads as its first replica leading in epoch 0
 * with every replica in sync, and {@link #zkVersion} {@value #NO_ZNODE}; the controller creates
 * the znode with that content when it next has to change it.
 *
 * @param leader the leader the state names, live or not; {@link ClusterSnapshot#NO_LEADER} when the
 *     partition is offline (no in-sync replica was live at the last election)
 * @param zkVersion the state znode's version, for a conditional update; {@value #NO_ZNODE} when there is none
 */
public record PartitionState(List<Integer> replicas, int leader, int leaderEpoch, List<Integer> isr, int zkVersion) {

    /** The {@link #zkVersion} of a partition without a state znode. */
    public static final int NO_ZNODE = -1;

    public PartitionState {
        replicas = List.copyOf(replicas);
        isr = List.copyOf(isr);
        if (replicas.isEmpty()) {
            throw new IllegalArgumentException("A partition needs at least one replica");
        }
    }

    /** The state a partition starts in: the first replica leads in epoch 0, every replica in sync. */
    public static PartitionState initial(List<Integer> replicas) {
        return new PartitionState(replicas, replicas.get(0), 0, replicas, NO_ZNODE);
    }

    /** The first replica: the leader the controller moves leadership back to when it can. */
    public int preferredLeader() {
        return replicas.get(0);
    }

    public boolean hasZnode() {
        return zkVersion != NO_ZNODE;
    }

    public boolean isReplica(int brokerId) {
        return replicas.contains(brokerId);
    }

    public boolean inSync(int brokerId) {
        return isr.contains(brokerId);
    }
}
