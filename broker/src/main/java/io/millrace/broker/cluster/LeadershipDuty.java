package io.millrace.broker.cluster;

import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller's leadership work ({@link LeaderElection} has the rules): failover for
 * partitions whose leader is gone, controlled shutdowns, and moving leadership back to preferred
 * replicas. Decisions come from the controller's metadata snapshot; each write is conditional on
 * the state znode version the decision was made from (or creates a state znode that did not
 * exist) and fenced by the controller latch, so a stale snapshot or a stale controller changes
 * nothing: its write fails, and the next snapshot brings a new decision.
 *
 * <p>Not thread-safe: runs on the controller's thread.
 */
final class LeadershipDuty {

    private static final Logger log = LoggerFactory.getLogger(LeadershipDuty.class);
    /** Elections written in one transaction. */
    private static final int ELECTIONS_PER_TRANSACTION = 200;
    /** How often, and how far apart, an operator's election that raced with another write is decided again. */
    private static final int RACED_ELECTION_RETRIES = 5;
    private static final long RACED_ELECTION_RETRY_MS = 100;

    interface Fence {
        CuratorOp check() throws Exception;
    }

    private final CuratorFramework client;
    private final int controllerId;
    private final Fence fence;
    private final Predicate<Map<String, String>> uncleanAllowed;

    /** @param uncleanAllowed whether a topic with these configuration overrides allows unclean leader election */
    LeadershipDuty(CuratorFramework client, int controllerId, Fence fence, Predicate<Map<String, String>> uncleanAllowed) {
        this.client = client;
        this.controllerId = controllerId;
        this.fence = fence;
        this.uncleanAllowed = uncleanAllowed;
    }

    /** Whether {@code snapshot} calls for an election or shows a controlled shutdown not yet carried out. Cheap enough for every change. */
    boolean needed(ClusterSnapshot snapshot) {
        return !failovers(snapshot).isEmpty() || snapshot.shuttingDown().stream().anyMatch(snapshot::controlledShutdownPending);
    }

    /** Elects leaders for partitions whose leader is gone, then carries out pending controlled shutdowns. */
    void run(ClusterSnapshot snapshot) throws Exception {
        write(failovers(snapshot));
        for (int broker : new TreeSet<>(snapshot.shuttingDown())) {
            if (snapshot.controlledShutdownPending(broker)) {
                controlledShutdown(snapshot, broker);
            }
        }
    }

    /** Moves leadership back to each partition's first replica where it is live and in sync. */
    void rebalance(ClusterSnapshot snapshot) throws Exception {
        Set<Integer> live = liveIds(snapshot);
        List<LeaderElection> elections = new ArrayList<>();
        snapshot.forEachPartition((tp, state) ->
            LeaderElection.preferred(tp, state, live, snapshot.shuttingDown()).ifPresent(elections::add));
        if (!elections.isEmpty()) {
            log.info("Controller {} moves {} partitions back to their preferred leaders", controllerId, elections.size());
        }
        write(elections);
    }

    /**
     * The elections an operator asked for (ElectLeaders), written now, whatever the rebalance
     * interval: for each partition (every partition when {@code partitions} is null) its new leader
     * once written, or ELECTION_NOT_NEEDED when it already has the leader asked for, or why it
     * cannot have one. Preferred: the first replica, when live and in sync. Unclean: for a
     * partition whose leader is not live, an in-sync replica if one is live, else any live replica,
     * whatever the topic's unclean.leader.election.enable says, as Kafka's KIP-460 election does.
     */
    Map<TopicPartition, ElectionOutcome> elect(Supplier<ClusterSnapshot> views, boolean unclean,
                                               Collection<TopicPartition> partitions) throws Exception {
        // An election whose write raced with another change of the partition's state (the controller's
        // own failover, an ISR change) was decided on a view behind ZooKeeper: decide it again on a later
        // one. What still races after the retries is answered UNKNOWN_SERVER_ERROR.
        Map<TopicPartition, ElectionOutcome> results = new LinkedHashMap<>(elect(views.get(), unclean, partitions));
        for (int retry = 0; retry < RACED_ELECTION_RETRIES; retry++) {
            List<TopicPartition> raced = results.entrySet().stream()
                .filter(e -> e.getValue().error() == Errors.UNKNOWN_SERVER_ERROR).map(Map.Entry::getKey).toList();
            if (raced.isEmpty()) {
                break;
            }
            Thread.sleep(RACED_ELECTION_RETRY_MS);
            results.putAll(elect(views.get(), unclean, raced));
        }
        return results;
    }

    private Map<TopicPartition, ElectionOutcome> elect(ClusterSnapshot snapshot, boolean unclean,
                                                       Collection<TopicPartition> partitions) throws Exception {
        Set<Integer> live = liveIds(snapshot);
        Map<TopicPartition, ElectionOutcome> results = new LinkedHashMap<>();
        List<LeaderElection> elections = new ArrayList<>();
        Collection<TopicPartition> asked = partitions != null ? partitions : allPartitions(snapshot);
        for (TopicPartition tp : asked) {
            Optional<PartitionState> state = snapshot.partitionState(tp.topic(), tp.partition());
            if (state.isEmpty()) {
                results.put(tp, ElectionOutcome.failed(Errors.UNKNOWN_TOPIC_OR_PARTITION));
            } else if (live.contains(state.get().leader()) && (unclean || state.get().leader() == state.get().preferredLeader())) {
                results.put(tp, ElectionOutcome.failed(Errors.ELECTION_NOT_NEEDED));
            } else {
                Optional<LeaderElection> election = unclean
                    ? LeaderElection.failover(tp, state.get(), live, snapshot.shuttingDown(), true)
                        .filter(e -> e.leader() != ClusterSnapshot.NO_LEADER)
                    : LeaderElection.preferred(tp, state.get(), live, snapshot.shuttingDown());
                election.ifPresent(elections::add);
                results.put(tp, election.map(e -> ElectionOutcome.elected(e.leader())).orElse(ElectionOutcome.failed(
                    unclean ? Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE : Errors.PREFERRED_LEADER_NOT_AVAILABLE)));
            }
        }
        if (!elections.isEmpty()) {
            log.info("Controller {} elects leaders of {} partitions as asked ({})", controllerId, elections.size(),
                unclean ? "unclean" : "preferred");
        }
        Set<TopicPartition> written = new HashSet<>();
        write(elections, written);
        for (LeaderElection election : elections) {
            if (!written.contains(election.partition())) {
                results.put(election.partition(), ElectionOutcome.failed(Errors.UNKNOWN_SERVER_ERROR));
            }
        }
        return results;
    }

    private static List<TopicPartition> allPartitions(ClusterSnapshot snapshot) {
        List<TopicPartition> all = new ArrayList<>();
        snapshot.forEachPartition((tp, state) -> all.add(tp));
        return all;
    }

    List<LeaderElection> failovers(ClusterSnapshot snapshot) {
        Set<Integer> live = liveIds(snapshot);
        List<LeaderElection> elections = new ArrayList<>();
        snapshot.forEachPartition((tp, state) -> LeaderElection.failover(tp, state, live, snapshot.shuttingDown(),
            !live.contains(state.leader()) && uncleanAllowed.test(snapshot.topicConfig(tp.topic()))).ifPresent(elections::add));
        return elections;
    }

    private void controlledShutdown(ClusterSnapshot snapshot, int broker) throws Exception {
        Set<Integer> live = liveIds(snapshot);
        List<LeaderElection> moves = new ArrayList<>();
        for (TopicPartition tp : snapshot.partitionsLedBy(broker)) {
            PartitionState state = snapshot.partitionState(tp.topic(), tp.partition()).orElseThrow();
            LeaderElection.controlledShutdown(tp, state, broker, live, snapshot.shuttingDown()).ifPresent(moves::add);
        }
        log.info("Controller {}: broker {} is shutting down; moving leadership of {} partitions", controllerId, broker, moves.size());
        if (write(moves) == moves.size()) {
            markDone(broker);
        }
    }

    private void markDone(int broker) throws Exception {
        try {
            client.transaction().forOperations(fence.check(), client.transactionOp().setData()
                .forPath(ClusterPaths.controlledShutdownRequest(broker), ClusterJson.controlledShutdownRequest(true)));
            log.info("Controller {}: controlled shutdown of broker {} done", controllerId, broker);
        } catch (KeeperException.NoNodeException e) {
            log.debug("Broker {} left before its controlled shutdown was done", broker);
        }
    }

    /** Writes the elections, many to a transaction, one by one when a transaction fails; returns how many were written. */
    int write(List<LeaderElection> elections) throws Exception {
        return write(elections, new HashSet<>());
    }

    /** As above, adding the partitions whose election was written to {@code written}. */
    private int write(List<LeaderElection> elections, Set<TopicPartition> written) throws Exception {
        for (int from = 0; from < elections.size(); from += ELECTIONS_PER_TRANSACTION) {
            List<LeaderElection> chunk = elections.subList(from, Math.min(elections.size(), from + ELECTIONS_PER_TRANSACTION));
            if (commit(chunk)) {
                chunk.forEach(e -> written.add(e.partition()));
            } else if (chunk.size() > 1) {
                for (LeaderElection election : chunk) {
                    if (commit(List.of(election))) {
                        written.add(election.partition());
                    }
                }
            }
        }
        return written.size();
    }

    private boolean commit(List<LeaderElection> elections) throws Exception {
        List<CuratorOp> ops = new ArrayList<>();
        ops.add(fence.check());
        for (LeaderElection election : elections) {
            ops.addAll(ops(election));
        }
        try {
            client.transaction().forOperations(ops);
        } catch (KeeperException e) {
            log.debug("Controller {}: {} elections raced with another change ({}); the next view decides again", controllerId,
                elections.size(), e.code());
            return false;
        }
        for (LeaderElection election : elections) {
            if (election.unclean()) {
                log.warn("Controller {}: UNCLEAN leader election for {}: no in-sync replica is live, so out-of-sync replica {} "
                    + "leads; records acknowledged by the previous in-sync replicas {} may be lost", controllerId,
                    election.partition(), election.leader(), election.before().isr());
            } else {
                log.info("Controller {}: {}", controllerId, election);
            }
        }
        return true;
    }

    private List<CuratorOp> ops(LeaderElection election) throws Exception {
        TopicPartition tp = election.partition();
        byte[] data = ClusterJson.partitionState(election.leader(), election.leaderEpoch(), election.isr());
        if (election.before().hasZnode()) {
            return List.of(client.transactionOp().setData().withVersion(election.before().zkVersion())
                .forPath(ClusterPaths.partitionState(tp.topic(), tp.partition()), data));
        }
        return IsrWriter.createStateOps(client, tp.topic(), tp.partition(), data);
    }

    private static Set<Integer> liveIds(ClusterSnapshot snapshot) {
        Set<Integer> live = new HashSet<>();
        snapshot.liveBrokers().forEach(b -> live.add(b.id()));
        return live;
    }
}
