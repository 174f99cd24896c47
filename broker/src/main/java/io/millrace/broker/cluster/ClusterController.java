package io.millrace.broker.cluster;

import io.millrace.common.TopicPartition;
import io.millrace.common.errors.MillraceException;
import io.millrace.common.errors.TopicExistsException;
import io.millrace.common.errors.UnknownTopicOrPartitionException;
import io.millrace.common.protocol.Errors;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.TransactionOp;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The controller duty every broker stands for: a Curator {@link LeaderLatch} on
 * {@value ClusterPaths#CONTROLLER} elects exactly one controller, which carries out the pending
 * requests under {@code /millrace/admin}. For a creation it places the partitions' replicas over
 * the live brokers ({@link PartitionAssigner}) and, in one ZooKeeper transaction, writes the
 * topic's configuration, replica lists and partition states (the first replica leading in epoch 0,
 * every replica in sync) and deletes the request; for a deletion it deletes the states, the
 * assignment, the configuration and the request; for a partition increase it rewrites the
 * assignment with the new partitions added (at the version it read, so a concurrent change makes
 * it read again), creates their states and deletes the request. A request it cannot carry out it
 * marks with the error, for the requester. It also elects leaders ({@link LeadershipDuty}): when a
 * leader's broker goes, when a broker asks for a controlled shutdown, and, every
 * {@code leader.imbalance.check.interval.seconds}, back to preferred replicas; and it moves
 * partitions to new replicas when asked ({@link ReassignmentDuty}). A newly elected
 * controller first works through every request already pending and every partition whose leader is gone.
 *
 * <p><b>Fencing.</b> Each write is a transaction that starts by checking that our latch znode
 * still exists. The latch gives leadership to the lowest sequence number and never hands out a
 * lower one later, so while that znode exists nobody else can be controller; a broker that lost
 * its session or its latch node cannot write, whatever it still believes.
 *
 * <p><b>Ordering.</b> A topic's configuration znode is written before its assignment and deleted
 * after it, in the same transaction: the caches see events in that order, so no broker sees a
 * topic without its configuration.
 *
 * <p><b>Connection states.</b> Curator's latch gives up leadership on SUSPENDED and LOST and
 * rechecks it on RECONNECTED; the fencing check covers the time in between.
 *
 * <p>Thread-safe: all controller work runs on its one thread.
 */
final class ClusterController implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ClusterController.class);
    private static final int ATTEMPTS = 3;

    private final CuratorFramework client;
    private final int brokerId;
    private final LeaderLatch latch;
    private final PartitionAssigner assigner;
    private final MetadataCache metadata;
    private final LeadershipDuty leadership;
    private final ReassignmentDuty reassignments;
    private final Duration rebalanceInterval;
    private final ScheduledExecutorService thread;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final AtomicBoolean started = new AtomicBoolean();
    /** State znodes of the request being handled that did not fit its transaction. Controller thread only. */
    private List<List<CuratorOp>> laterStates = List.of();

    /**
     * @param uncleanAllowed whether a topic with these configuration overrides allows unclean leader election
     * @param rebalanceInterval how often leadership goes back to preferred replicas; zero or less for never
     */
    ClusterController(CuratorFramework client, int brokerId, PartitionAssigner assigner, MetadataCache metadata,
                      Predicate<Map<String, String>> uncleanAllowed, Duration rebalanceInterval, String name) {
        this.client = client;
        this.brokerId = brokerId;
        this.assigner = assigner;
        this.metadata = metadata;
        this.rebalanceInterval = rebalanceInterval;
        this.latch = new LeaderLatch(client, ClusterPaths.CONTROLLER, String.valueOf(brokerId));
        this.leadership = new LeadershipDuty(client, brokerId, this::fence, uncleanAllowed);
        this.reassignments = new ReassignmentDuty(client, brokerId, this::fence);
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name + "-controller");
            t.setDaemon(true);
            return t;
        });
    }

    void start() throws Exception {
        if (!started.compareAndSet(false, true)) {
            throw new IllegalStateException("Controller already started");
        }
        latch.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                log.info("Broker {} is now the controller", brokerId);
                schedule();
            }

            @Override
            public void notLeader() {
                log.info("Broker {} is no longer the controller", brokerId);
            }
        }, thread);
        latch.start();
        if (!rebalanceInterval.isNegative() && !rebalanceInterval.isZero()) {
            long ms = rebalanceInterval.toMillis();
            thread.scheduleWithFixedDelay(this::rebalance, ms, ms, TimeUnit.MILLISECONDS);
        }
    }

    boolean isController() {
        return latch.hasLeadership();
    }

    /**
     * Elects leaders now, as an operator's ElectLeaders asks ({@link LeadershipDuty#elect}), on the
     * controller's thread. When this broker is not the controller, every partition named is
     * NOT_CONTROLLER (and a request naming none gets no result), as on Kafka.
     */
    CompletableFuture<Map<TopicPartition, ElectionOutcome>> elect(boolean unclean, Collection<TopicPartition> partitions) {
        return onControllerThread(() -> leadership.elect(metadata::snapshot, unclean, partitions),
            () -> notController(partitions, ElectionOutcome.failed(Errors.NOT_CONTROLLER)));
    }

    /**
     * Starts, changes or cancels (a null target) partition reassignments, as an operator's
     * AlterPartitionReassignments asks ({@link ReassignmentDuty#alter}), on the controller's thread;
     * NOT_CONTROLLER for each partition on another broker.
     */
    CompletableFuture<Map<TopicPartition, ReassignmentOutcome>> alterReassignments(Map<TopicPartition, List<Integer>> targets,
                                                                                 boolean allowReplicationFactorChange) {
        return onControllerThread(() -> reassignments.alter(metadata.snapshot(), targets, allowReplicationFactorChange),
            () -> notController(targets.keySet(), ReassignmentOutcome.failed(Errors.NOT_CONTROLLER, null)));
    }

    /** Work only the controller does, run on its thread; {@code notController} answers when this broker is not it. */
    private <T> CompletableFuture<T> onControllerThread(ControllerWork<T> work, java.util.function.Supplier<T> notController) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            thread.execute(() -> {
                try {
                    result.complete(latch.hasLeadership() ? work.run() : notController.get());
                } catch (LostLeadership e) {
                    result.complete(notController.get());
                } catch (Exception e) {
                    result.completeExceptionally(e);
                }
            });
        } catch (RejectedExecutionException e) {
            result.complete(notController.get()); // closing
        }
        return result;
    }

    @FunctionalInterface
    private interface ControllerWork<T> {
        T run() throws Exception;
    }

    private static <T> Map<TopicPartition, T> notController(Collection<TopicPartition> partitions, T outcome) {
        Map<TopicPartition, T> all = new LinkedHashMap<>();
        if (partitions != null) {
            partitions.forEach(tp -> all.put(tp, outcome));
        }
        return all;
    }

    /** A metadata listener that wakes the controller when requests are pending or a partition needs a leader. */
    MetadataListener requestWatcher() {
        return (previous, current) -> {
            if (latch.hasLeadership() && (!current.pendingRequests().isEmpty() || leadership.needed(current)
                || reassignments.needed(current))) {
                schedule();
            }
        };
    }

    @Override
    public void close() {
        if (started.compareAndSet(true, false)) {
            try {
                latch.close();
            } catch (Exception e) {
                log.warn("Broker {} could not leave the controller election cleanly", brokerId, e);
            }
        }
        thread.shutdown();
        try {
            thread.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void schedule() {
        if (scheduled.compareAndSet(false, true)) {
            try {
                thread.execute(this::processPending);
            } catch (RejectedExecutionException e) {
                scheduled.set(false); // closing
            }
        }
    }

    private void processPending() {
        scheduled.set(false); // changes from now on schedule another pass
        if (!latch.hasLeadership()) {
            return;
        }
        try {
            for (String topic : client.getChildren().forPath(ClusterPaths.CREATE_TOPIC_REQUESTS)) {
                retrying(AdminRequest.Kind.CREATE, topic);
            }
            for (String topic : client.getChildren().forPath(ClusterPaths.DELETE_TOPIC_REQUESTS)) {
                retrying(AdminRequest.Kind.DELETE, topic);
            }
            for (String topic : client.getChildren().forPath(ClusterPaths.CREATE_PARTITIONS_REQUESTS)) {
                retrying(AdminRequest.Kind.CREATE_PARTITIONS, topic);
            }
            leadership.run(metadata.snapshot());
            reassignments.run(metadata.snapshot());
        } catch (LostLeadership e) {
            log.info("Broker {} stopped controller work: {}", brokerId, e.getMessage());
        } catch (Exception e) {
            log.warn("Controller {} could not finish pending requests; will try again on the next change", brokerId, e);
        }
    }

    private void rebalance() {
        if (!latch.hasLeadership()) {
            return;
        }
        try {
            leadership.rebalance(metadata.snapshot());
        } catch (LostLeadership e) {
            log.info("Broker {} stopped moving leaders back: {}", brokerId, e.getMessage());
        } catch (Exception e) {
            log.warn("Controller {} could not move leaders back to preferred replicas; will try again", brokerId, e);
        }
    }

    /** Handles one request, reading it again after a transaction that raced with another change. */
    private void retrying(AdminRequest.Kind kind, String topic) throws Exception {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            if (handle(kind, topic)) {
                return;
            }
        }
        log.warn("Controller {} gave up on the {} request for {} for now; it kept changing", brokerId, kind, topic);
    }

    /** Returns false when the state moved under us and the request should be read again. */
    private boolean handle(AdminRequest.Kind kind, String topic) throws Exception {
        String path = AdminRequest.path(kind, topic);
        Stat stat = new Stat();
        byte[] data = dataOrNull(path, stat);
        if (data == null) {
            return true;
        }
        AdminRequest request = ClusterJson.parseRequest(kind, topic, data, stat.getCzxid(), stat.getVersion());
        if (!request.isPending()) {
            return true;
        }
        try {
            laterStates = List.of();
            List<CuratorOp> ops = switch (kind) {
                case CREATE -> creation(request);
                case DELETE -> deletion(request);
                case CREATE_PARTITIONS -> partitionIncrease(request);
            };
            if (!commit(ops, kind + " " + topic)) {
                return false;
            }
            for (List<CuratorOp> chunk : laterStates) {
                commitOrThrow(chunk, "creating the partition states of " + topic);
            }
            return true;
        } catch (MillraceException e) {
            return reject(request, data, e);
        }
    }

    private List<CuratorOp> creation(AdminRequest request) throws Exception {
        String topic = request.topic();
        TopicNames.validate(topic);
        TopicAdmin.validatePartitions(request.partitions());
        if (client.checkExists().forPath(ClusterPaths.topic(topic)) != null) {
            throw new TopicExistsException("Topic '" + topic + "' already exists");
        }
        List<BrokerInfo> brokers = liveBrokers();
        if (brokers.isEmpty()) {
            throw new MillraceException("No live brokers to assign the partitions of '" + topic + "' to");
        }
        SortedMap<Integer, List<Integer>> replicas = request.assignment().isEmpty()
            ? assigner.assign(request.partitions(), request.replicationFactor(), brokers) : chosen(request, brokers);
        log.info("Controller {} creates topic {} with partition -> replicas {} (leads/replicas per broker {})",
            brokerId, topic, replicas, PartitionAssigner.loadByBroker(replicas));
        TransactionOp op = client.transactionOp();
        String configPath = ClusterPaths.topicConfig(topic);
        byte[] config = ClusterJson.topicConfig(request.config());
        boolean leftoverConfig = client.checkExists().forPath(configPath) != null;
        List<CuratorOp> ops = new ArrayList<>(List.of(
            fence(),
            leftoverConfig ? op.setData().forPath(configPath, config) : op.create().withMode(CreateMode.PERSISTENT).forPath(configPath, config),
            op.create().withMode(CreateMode.PERSISTENT).forPath(ClusterPaths.topic(topic), ClusterJson.topic(replicas)),
            TopicZnodes.createPartitionsDirectory(client, topic),
            op.delete().withVersion(request.version()).forPath(request.path())));
        List<List<CuratorOp>> states = TopicZnodes.chunks(TopicZnodes.createStates(client, topic, replicas));
        ops.addAll(states.get(0));
        laterStates = states.subList(1, states.size());
        return ops;
    }

    /** The replicas the requester chose for each partition, checked again against the live brokers. */
    private static SortedMap<Integer, List<Integer>> chosen(AdminRequest request, List<BrokerInfo> brokers) {
        PartitionAssigner.validateAddition(0, request.replicationFactor(), request.partitions(), request.assignment(),
            brokers.stream().map(BrokerInfo::id).toList());
        SortedMap<Integer, List<Integer>> replicas = new TreeMap<>();
        for (int p = 0; p < request.assignment().size(); p++) {
            replicas.put(p, request.assignment().get(p));
        }
        return replicas;
    }

    private List<CuratorOp> partitionIncrease(AdminRequest request) throws Exception {
        String topic = request.topic();
        TopicNames.validate(topic);
        Stat topicStat = new Stat();
        byte[] data = dataOrNull(ClusterPaths.topic(topic), topicStat);
        if (data == null) {
            throw new UnknownTopicOrPartitionException("Topic '" + topic + "' does not exist");
        }
        SortedMap<Integer, List<Integer>> assignment = new TreeMap<>(ClusterJson.parseTopic(data));
        SortedMap<Integer, List<Integer>> added = assigner.assignAdditional(assignment, request.partitions(), request.assignment(),
            liveBrokers());
        log.info("Controller {} adds partitions to topic {}: partition -> replicas {}", brokerId, topic, added);
        assignment.putAll(added);
        TransactionOp op = client.transactionOp();
        List<CuratorOp> ops = new ArrayList<>(List.of(
            fence(),
            op.setData().withVersion(topicStat.getVersion()).forPath(ClusterPaths.topic(topic),
                ClusterJson.topic(assignment, ClusterJson.parseReassignments(data))),
            op.delete().withVersion(request.version()).forPath(request.path())));
        if (client.checkExists().forPath(ClusterPaths.partitions(topic)) == null) {
            ops.add(TopicZnodes.createPartitionsDirectory(client, topic));
        }
        List<List<CuratorOp>> states = TopicZnodes.chunks(TopicZnodes.createStates(client, topic, added));
        ops.addAll(states.get(0));
        laterStates = states.subList(1, states.size());
        return ops;
    }

    private List<CuratorOp> deletion(AdminRequest request) throws Exception {
        String topic = request.topic();
        TopicNames.validate(topic);
        Stat topicStat = client.checkExists().forPath(ClusterPaths.topic(topic));
        if (topicStat == null) {
            throw new UnknownTopicOrPartitionException("Topic '" + topic + "' does not exist");
        }
        log.info("Controller {} deletes topic {}", brokerId, topic);
        TransactionOp op = client.transactionOp();
        List<CuratorOp> ops = new ArrayList<>();
        ops.add(fence());
        List<List<CuratorOp>> states = TopicZnodes.chunks(TopicZnodes.deleteStates(client, topic));
        if (states.size() > 1) {
            // Too many for one transaction: the last chunk goes with the topic, the others first.
            for (List<CuratorOp> chunk : states.subList(0, states.size() - 1)) {
                commitOrThrow(chunk, "deleting the partition states of " + topic);
            }
        }
        if (!states.isEmpty()) {
            ops.addAll(states.get(states.size() - 1));
        }
        ops.add(op.delete().withVersion(topicStat.getVersion()).forPath(ClusterPaths.topic(topic)));
        Stat configStat = client.checkExists().forPath(ClusterPaths.topicConfig(topic));
        if (configStat != null) {
            ops.add(op.delete().withVersion(configStat.getVersion()).forPath(ClusterPaths.topicConfig(topic)));
        }
        ops.add(op.delete().withVersion(request.version()).forPath(request.path()));
        return ops;
    }

    private boolean reject(AdminRequest request, byte[] data, MillraceException reason) throws Exception {
        AdminError error = AdminError.of(reason);
        log.info("Controller {} rejects the {} request for {}: {} {}", brokerId, request.kind(), request.topic(), error, reason.getMessage());
        byte[] verdict = ClusterJson.rejected(data, error, reason.getMessage());
        return commit(List.of(fence(), client.transactionOp().setData().withVersion(request.version()).forPath(request.path(), verdict)),
            "rejecting " + request.kind() + " " + request.topic());
    }

    /**
     * Runs a follow-up transaction of partition state znodes, fenced. A failure is left for the
     * next controller pass: a partition without its state znode reads as its initial state.
     */
    private void commitOrThrow(List<CuratorOp> ops, String what) throws Exception {
        List<CuratorOp> fenced = new ArrayList<>(ops.size() + 1);
        fenced.add(fence());
        fenced.addAll(ops);
        if (!commit(fenced, what)) {
            throw new MillraceException("Controller " + brokerId + " could not finish " + what);
        }
    }

    /** Runs the transaction; false when it failed on a change other than our leadership. */
    private boolean commit(List<CuratorOp> ops, String what) throws Exception {
        try {
            client.transaction().forOperations(ops);
            return true;
        } catch (KeeperException e) {
            if (!stillLeader()) {
                throw new LostLeadership("lost leadership before " + what);
            }
            log.debug("Controller {}: transaction for {} raced with another change ({}); reading again", brokerId, what, e.code());
            return false;
        }
    }

    private CuratorOp fence() throws Exception {
        String ourPath = latch.getOurPath();
        if (ourPath == null || !latch.hasLeadership()) {
            throw new LostLeadership("no longer holds the controller latch");
        }
        return client.transactionOp().check().forPath(ourPath);
    }

    private boolean stillLeader() throws Exception {
        String ourPath = latch.getOurPath();
        return latch.hasLeadership() && ourPath != null && client.checkExists().forPath(ourPath) != null;
    }

    /** The registered brokers with their racks, read from ZooKeeper rather than the cache, by id. */
    private List<BrokerInfo> liveBrokers() throws Exception {
        List<BrokerInfo> brokers = new ArrayList<>();
        for (String child : client.getChildren().forPath(ClusterPaths.BROKER_IDS)) {
            String path = ClusterPaths.BROKER_IDS + "/" + child;
            java.util.OptionalInt id = ClusterPaths.brokerIdOf(path);
            byte[] data = id.isPresent() ? dataOrNull(path, new Stat()) : null;
            if (data != null) {
                try {
                    brokers.add(ClusterJson.parseBroker(id.getAsInt(), data));
                } catch (ClusterJson.MalformedZNodeException e) {
                    log.warn("Controller {} leaves out broker {}: {}", brokerId, id.getAsInt(), e.getMessage());
                }
            }
        }
        brokers.sort(java.util.Comparator.comparingInt(BrokerInfo::id));
        return brokers;
    }

    private byte[] dataOrNull(String path, Stat stat) throws Exception {
        try {
            return client.getData().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    /** Controller work stops: another broker is, or is about to be, the controller. */
    private static final class LostLeadership extends Exception {
        private static final long serialVersionUID = 1L;

        LostLeadership(String message) {
            super(message);
        }
    }

    @Override
    public String toString() {
        return "ClusterController(broker " + brokerId + ", leader=" + latch.hasLeadership() + ")";
    }
}
