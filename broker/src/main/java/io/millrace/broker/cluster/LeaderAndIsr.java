package io.millrace.broker.cluster;

import java.util.List;

/**
 * The content of a partition's state znode, {@code {"version":1,"leader":L,"leader_epoch":E,"isr":[..]}},
 * with the znode's version. {@link ClusterSnapshot} joins it with the topic's replica list into a
 * {@link PartitionState}. Immutable.
 */
record LeaderAndIsr(int leader, int leaderEpoch, List<Integer> isr, int zkVersion) {

    LeaderAndIsr {
        isr = List.copyOf(isr);
    }

    static LeaderAndIsr of(PartitionState state) {
        return new LeaderAndIsr(state.leader(), state.leaderEpoch(), state.isr(), state.zkVersion());
    }

    PartitionState withReplicas(List<Integer> replicas) {
        return new PartitionState(replicas, leader, leaderEpoch, isr, zkVersion);
    }
}
