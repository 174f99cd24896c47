package io.millrace.broker.cluster;

import io.millrace.common.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One change of a partition's leadership the controller decided on, and the rules that decide
 * them. Every change of leader (to another broker, or to none) increments the leader epoch; a
 * broker that is shutting down is never chosen.
 *
 * <ul>
 * <li><b>Failover</b>: the leader is not live. The new leader is the first replica, in replica
 *     order, that is live and in the ISR; the ISR loses the brokers that are not live. With none,
 *     and unclean election allowed for the topic, the first live replica leads with an ISR of
 *     itself (records acknowledged by the old ISR may be lost); otherwise the partition goes
 *     offline (leader -1) and its ISR stays as it was, so that its last members keep their claim
 *     and one of them leads again when it returns.</li>
 * <li><b>Lost followers</b>: the leader is live but members of its ISR are not. They leave the ISR
 *     at once, the leader staying, as Kafka's controller drops a dead broker's replicas, rather than
 *     when the leader finds them lagging, which takes new records: until then the ISR (and the
 *     leader's under-replicated count) would name a dead broker as in sync.</li>
 * <li><b>Controlled shutdown</b> of the leader: leadership moves to the first other live ISR
 *     member, which the ISR then loses; a partition with no such member keeps its leader.</li>
 * <li><b>Preferred leader</b>: a partition led by another broker than its first replica goes back
 *     to it when it is live and in the ISR.</li>
 * </ul>
 *
 * @param before the state as read, whose znode version the write is conditional on
 * @param unclean whether the new leader was not in the ISR
 */
record LeaderElection(TopicPartition partition, PartitionState before, int leader, List<Integer> isr, String reason,
                      boolean unclean) {

    LeaderElection {
        isr = List.copyOf(isr);
    }

    int leaderEpoch() {
        return before.leaderEpoch() + 1;
    }

    static Optional<LeaderElection> failover(TopicPartition tp, PartitionState state, Set<Integer> live, Set<Integer> shuttingDown,
                                             boolean uncleanAllowed) {
        if (live.contains(state.leader())) {
            List<Integer> isr = state.isr().stream().filter(live::contains).toList();
            return isr.size() == state.isr().size() ? Optional.empty()
                : Optional.of(new LeaderElection(tp, state, state.leader(), isr, "in-sync replicas not live", false));
        }
        for (int replica : state.replicas()) {
            if (eligible(replica, live, shuttingDown) && state.inSync(replica)) {
                List<Integer> isr = state.isr().stream().filter(live::contains).toList();
                return Optional.of(new LeaderElection(tp, state, replica, isr, "leader " + state.leader() + " not live", false));
            }
        }
        if (uncleanAllowed) {
            for (int replica : state.replicas()) {
                if (eligible(replica, live, shuttingDown)) {
                    return Optional.of(new LeaderElection(tp, state, replica, List.of(replica), "no in-sync replica live", true));
                }
            }
        }
        if (state.leader() == ClusterSnapshot.NO_LEADER) {
            return Optional.empty(); // offline already
        }
        return Optional.of(new LeaderElection(tp, state, ClusterSnapshot.NO_LEADER, state.isr(),
            "leader " + state.leader() + " not live and no in-sync replica live", false));
    }

    static Optional<LeaderElection> controlledShutdown(TopicPartition tp, PartitionState state, int broker, Set<Integer> live,
                                                       Set<Integer> shuttingDown) {
        if (state.leader() != broker) {
            return Optional.empty();
        }
        for (int replica : state.replicas()) {
            if (replica != broker && eligible(replica, live, shuttingDown) && state.inSync(replica)) {
                List<Integer> isr = new ArrayList<>(state.isr());
                isr.remove(Integer.valueOf(broker));
                return Optional.of(new LeaderElection(tp, state, replica, isr, "controlled shutdown of " + broker, false));
            }
        }
        return Optional.empty();
    }

    static Optional<LeaderElection> preferred(TopicPartition tp, PartitionState state, Set<Integer> live, Set<Integer> shuttingDown) {
        int preferred = state.preferredLeader();
        if (state.leader() == preferred || state.leader() == ClusterSnapshot.NO_LEADER || !live.contains(state.leader())
            || !eligible(preferred, live, shuttingDown) || !state.inSync(preferred)) {
            return Optional.empty();
        }
        return Optional.of(new LeaderElection(tp, state, preferred, state.isr(), "preferred leader", false));
    }

    private static boolean eligible(int broker, Set<Integer> live, Set<Integer> shuttingDown) {
        return live.contains(broker) && !shuttingDown.contains(broker);
    }

    @Override
    public String toString() {
        return partition + ": leader " + before.leader() + " -> " + leader + ", epoch " + leaderEpoch() + ", isr " + isr
            + " (" + reason + (unclean ? ", UNCLEAN" : "") + ")";
    }
}
