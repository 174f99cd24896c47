package io.millrace.broker.cluster;

import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's partition reassignments (KIP-455, as Kafka's ZooKeeper-era controller ran them).
 * To start one it writes the partition's replicas as the target's followed by the original replicas
 * the target drops, with what the move adds and removes ({@link Reassignment}) in the topic znode,
 * and a new leader epoch in the state znode so the leader takes the new followers on; the added
 * brokers then create the log and follow the leader, which puts them in sync as they catch up. On
 * each metadata change it ends the moves whose target replicas are all in sync: replicas become the
 * target, the ISR loses the removed replicas, the leader moves to the target's first live in-sync
 * replica if it is being removed, and the epoch goes up; the removed brokers delete their logs. A
 * cancellation goes back to the original replicas the same way. The state lives in ZooKeeper, so a
 * new controller carries on where the last one stopped.
 *
 * <p>Each partition is written in its own transaction, fenced by the controller latch and
 * conditional on the versions read, so a concurrent change (an ISR change, an election) makes the
 * write fail and the next metadata change decide again. Not thread-safe: runs on the controller's thread.
 */
final class ReassignmentDuty {

    private static final Logger log = LoggerFactory.getLogger(ReassignmentDuty.class);
    private static final int ATTEMPTS = 3;

    private final CuratorFramework client;
    private final int controllerId;
    private final LeadershipDuty.Fence fence;

    ReassignmentDuty(CuratorFramework client, int controllerId, LeadershipDuty.Fence fence) {
        this.client = client;
        this.controllerId = controllerId;
        this.fence = fence;
    }

    /**
     * Starts, changes or cancels (a null target) the reassignment of each partition, in order.
     *
     * @param allowReplicationFactorChange false refuses a target with another number of replicas than the original
     */
    Map<TopicPartition, ReassignmentOutcome> alter(ClusterSnapshot snapshot, Map<TopicPartition, List<Integer>> targets,
                                                   boolean allowReplicationFactorChange) throws Exception {
        Set<Integer> live = liveIds(snapshot);
        Map<TopicPartition, ReassignmentOutcome> outcomes = new LinkedHashMap<>();
        for (Map.Entry<TopicPartition, List<Integer>> entry : targets.entrySet()) {
            TopicPartition tp = entry.getKey();
            ReassignmentOutcome outcome = null;
            for (int attempt = 0; attempt < ATTEMPTS && outcome == null; attempt++) {
                outcome = alterOne(tp, entry.getValue(), allowReplicationFactorChange, live);
            }
            outcomes.put(tp, outcome != null ? outcome : ReassignmentOutcome.failed(Errors.REQUEST_TIMED_OUT,
                "The partition's state kept changing while the controller wrote its reassignment; try again"));
        }
        return outcomes;
    }

    /** Whether some move in {@code snapshot} can end: cheap enough for every metadata change. */
    boolean needed(ClusterSnapshot snapshot) {
        return !completable(snapshot).isEmpty();
    }

    /** Ends every move whose target replicas are all in sync and one of them can lead. */
    void run(ClusterSnapshot snapshot) throws Exception {
        for (TopicPartition tp : completable(snapshot)) {
            completeOne(tp, liveIds(snapshot));
        }
    }

    private List<TopicPartition> completable(ClusterSnapshot snapshot) {
        Set<Integer> live = liveIds(snapshot);
        List<TopicPartition> ready = new ArrayList<>();
        snapshot.reassignments().forEach((tp, move) -> {
            PartitionState state = snapshot.partitionState(tp.topic(), tp.partition()).orElseThrow();
            List<Integer> target = move.target(state.replicas());
            if (state.isr().containsAll(target) && leaderAmong(target, state, live) != ClusterSnapshot.NO_LEADER) {
                ready.add(tp);
            }
        });
        return ready;
    }

    /** The outcome, or null when a write raced with another change and the partition must be read again. */
    private ReassignmentOutcome alterOne(TopicPartition tp, List<Integer> target, boolean allowFactorChange, Set<Integer> live)
        throws Exception {
        Stat topicStat = new Stat();
        byte[] topicData = dataOrNull(ClusterPaths.topic(tp.topic()), topicStat);
        SortedMap<Integer, List<Integer>> assignment = topicData == null ? new TreeMap<>() : ClusterJson.parseTopic(topicData);
        List<Integer> replicas = assignment.get(tp.partition());
        if (replicas == null) {
            return ReassignmentOutcome.failed(Errors.UNKNOWN_TOPIC_OR_PARTITION, "This cluster has no partition " + tp);
        }
        SortedMap<Integer, Reassignment> moving = ClusterJson.parseReassignments(topicData);
        Reassignment ongoing = moving.get(tp.partition());
        List<Integer> original = ongoing == null ? replicas : ongoing.original(replicas);
        if (target == null && ongoing == null) {
            return ReassignmentOutcome.failed(Errors.NO_REASSIGNMENT_IN_PROGRESS, "No reassignment of " + tp + " to cancel");
        }
        List<Integer> goal = target == null ? original : target;
        ReassignmentOutcome invalid = target == null ? null : invalidTarget(target, original, allowFactorChange, live);
        if (invalid != null) {
            return invalid;
        }
        List<Integer> newReplicas;
        if (goal.equals(original)) {
            moving.remove(tp.partition());
            newReplicas = original;
        } else {
            Reassignment.Moving move = Reassignment.start(original, goal);
            moving.put(tp.partition(), move.reassignment());
            newReplicas = move.replicas();
        }
        if (newReplicas.equals(replicas) && Objects.equals(moving.get(tp.partition()), ongoing)) {
            return ReassignmentOutcome.started(replicas, goal); // already so
        }
        PartitionState state = readState(tp, replicas);
        int leader = state.leader() != ClusterSnapshot.NO_LEADER && newReplicas.contains(state.leader()) ? state.leader()
            : leaderAmong(newReplicas, state, live);
        if (leader == ClusterSnapshot.NO_LEADER && state.leader() != ClusterSnapshot.NO_LEADER) {
            return ReassignmentOutcome.failed(Errors.INVALID_REPLICA_ASSIGNMENT, "None of " + newReplicas
                + " is live and in sync (ISR " + state.isr() + ") to lead " + tp + " once " + state.leader() + " is removed");
        }
        assignment.put(tp.partition(), newReplicas);
        if (!write(tp, assignment, moving, topicStat, state, leader, retained(state.isr(), newReplicas))) {
            return null;
        }
        log.info("Controller {} {} {}: replicas {} -> {} (target {}, original {})", controllerId,
            target == null ? "cancels the reassignment of" : "reassigns", tp, replicas, newReplicas, goal, original);
        return ReassignmentOutcome.started(newReplicas, goal);
    }

    private void completeOne(TopicPartition tp, Set<Integer> live) throws Exception {
        Stat topicStat = new Stat();
        byte[] topicData = dataOrNull(ClusterPaths.topic(tp.topic()), topicStat);
        if (topicData == null) {
            return;
        }
        SortedMap<Integer, List<Integer>> assignment = ClusterJson.parseTopic(topicData);
        SortedMap<Integer, Reassignment> moving = ClusterJson.parseReassignments(topicData);
        Reassignment move = moving.remove(tp.partition());
        List<Integer> replicas = assignment.get(tp.partition());
        if (move == null || replicas == null) {
            return;
        }
        List<Integer> target = move.target(replicas);
        PartitionState state = readState(tp, replicas);
        int leader = leaderAmong(target, state, live);
        if (!state.isr().containsAll(target) || leader == ClusterSnapshot.NO_LEADER) {
            return; // the snapshot was older than ZooKeeper: the next change decides
        }
        assignment.put(tp.partition(), target);
        if (write(tp, assignment, moving, topicStat, state, leader, retained(state.isr(), target))) {
            log.info("Controller {} completes the reassignment of {}: replicas {} -> {}, leader {}", controllerId, tp,
                replicas, target, leader);
        }
    }

    /** Why {@code target} cannot be moved to, or null when it can. */
    private static ReassignmentOutcome invalidTarget(List<Integer> target, List<Integer> original, boolean allowFactorChange,
                                                     Set<Integer> live) {
        String invalid = null;
        if (target.isEmpty()) {
            invalid = "The target replica list is empty";
        } else if (new HashSet<>(target).size() != target.size()) {
            invalid = "The target replica list " + target + " names a broker twice";
        } else {
            invalid = target.stream().filter(b -> !live.contains(b)).findFirst()
                .map(b -> "Broker " + b + " of the target " + target + " is not live").orElse(null);
        }
        if (invalid != null) {
            return ReassignmentOutcome.failed(Errors.INVALID_REPLICA_ASSIGNMENT, invalid);
        }
        if (!allowFactorChange && target.size() != original.size()) {
            return ReassignmentOutcome.failed(Errors.INVALID_REPLICATION_FACTOR, "The replication factor of " + target
                + " is not the partition's " + original.size() + ", and the request does not allow changing it");
        }
        return null;
    }

    /** The current leader if it is in {@code replicas} and live, else the first of them live and in sync, else none. */
    private static int leaderAmong(List<Integer> replicas, PartitionState state, Set<Integer> live) {
        if (replicas.contains(state.leader()) && live.contains(state.leader())) {
            return state.leader();
        }
        return replicas.stream().filter(id -> live.contains(id) && state.inSync(id)).findFirst()
            .orElse(ClusterSnapshot.NO_LEADER);
    }

    private static List<Integer> retained(List<Integer> isr, List<Integer> replicas) {
        List<Integer> kept = new ArrayList<>(isr);
        kept.retainAll(replicas);
        return kept;
    }

    /** Writes the topic's assignment and the partition's next epoch in one fenced transaction; false when it raced. */
    private boolean write(TopicPartition tp, SortedMap<Integer, List<Integer>> assignment, SortedMap<Integer, Reassignment> moving,
                          Stat topicStat, PartitionState state, int leader, List<Integer> isr) throws Exception {
        List<Integer> keptIsr = isr.isEmpty() && leader != ClusterSnapshot.NO_LEADER ? List.of(leader) : isr;
        byte[] stateData = ClusterJson.partitionState(leader, state.leaderEpoch() + 1, keptIsr);
        List<CuratorOp> ops = new ArrayList<>();
        ops.add(fence.check());
        ops.add(client.transactionOp().setData().withVersion(topicStat.getVersion())
            .forPath(ClusterPaths.topic(tp.topic()), ClusterJson.topic(assignment, moving)));
        if (state.hasZnode()) {
            ops.add(client.transactionOp().setData().withVersion(state.zkVersion())
                .forPath(ClusterPaths.partitionState(tp.topic(), tp.partition()), stateData));
        } else {
            ops.addAll(IsrWriter.createStateOps(client, tp.topic(), tp.partition(), stateData));
        }
        try {
            client.transaction().forOperations(ops);
            return true;
        } catch (KeeperException e) {
            log.debug("Controller {}: the reassignment write of {} raced with another change ({})", controllerId, tp, e.code());
            return false;
        }
    }

    /** The partition's state as ZooKeeper holds it now, with {@code replicas}; the initial state when it has no znode. */
    private PartitionState readState(TopicPartition tp, List<Integer> replicas) throws Exception {
        Stat stat = new Stat();
        byte[] data = dataOrNull(ClusterPaths.partitionState(tp.topic(), tp.partition()), stat);
        return data == null ? PartitionState.initial(replicas)
            : ClusterJson.parsePartitionState(data, stat.getVersion()).withReplicas(replicas);
    }

    private byte[] dataOrNull(String path, Stat stat) throws Exception {
        try {
            return client.getData().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    private static Set<Integer> liveIds(ClusterSnapshot snapshot) {
        Set<Integer> live = new HashSet<>();
        snapshot.liveBrokers().forEach(b -> live.add(b.id()));
        return live;
    }
}
