package io.millrace.broker.cluster;

import io.millrace.common.errors.MillraceException;
import io.millrace.common.errors.TopicExistsException;
import io.millrace.common.errors.UnknownTopicOrPartitionException;
import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * requests under {@code /millrace/admin}. For a creation it assigns the partitions round-robin
 * over the live brokers and, in one ZooKeeper transaction, writes the topic's configuration and
 * assignment and deletes the request; for a deletion it deletes the assignment, the configuration
 * and the request; for a partition increase it rewrites the assignment with the new partitions
 * added (at the version it read, so a concurrent change makes it read again) and deletes the
 * request. A request it cannot carry out it marks with the error, for the requester.
 * A newly elected controller first works through every request already pending.
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
    private final ExecutorService thread;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private final AtomicBoolean started = new AtomicBoolean();

    ClusterController(CuratorFramework client, int brokerId, PartitionAssigner assigner, String name) {
        this.client = client;
        this.brokerId = brokerId;
        this.assigner = assigner;
        this.latch = new LeaderLatch(client, ClusterPaths.CONTROLLER, String.valueOf(brokerId));
        this.thread = Executors.newSingleThreadExecutor(r -> {
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
    }

    boolean isController() {
        return latch.hasLeadership();
    }

    /** A metadata listener that wakes the controller when requests are pending. */
    MetadataListener requestWatcher() {
        return (previous, current) -> {
            if (latch.hasLeadership() && !current.pendingRequests().isEmpty()) {
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
        } catch (LostLeadership e) {
            log.info("Broker {} stopped controller work: {}", brokerId, e.getMessage());
        } catch (Exception e) {
            log.warn("Controller {} could not finish pending requests; will try again on the next change", brokerId, e);
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
            List<CuratorOp> ops = switch (kind) {
                case CREATE -> creation(request);
                case DELETE -> deletion(request);
                case CREATE_PARTITIONS -> partitionIncrease(request);
            };
            return commit(ops, kind + " " + topic);
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
        List<Integer> brokers = liveBrokers();
        if (brokers.isEmpty()) {
            throw new MillraceException("No live brokers to assign the partitions of '" + topic + "' to");
        }
        SortedMap<Integer, Integer> assignment = assigner.assign(request.partitions(), brokers);
        log.info("Controller {} creates topic {} with partition -> broker {} (partitions per broker {})",
            brokerId, topic, assignment, PartitionAssigner.countsByBroker(assignment));
        TransactionOp op = client.transactionOp();
        String configPath = ClusterPaths.topicConfig(topic);
        byte[] config = ClusterJson.topicConfig(request.config());
        boolean leftoverConfig = client.checkExists().forPath(configPath) != null;
        return List.of(
            fence(),
            leftoverConfig ? op.setData().forPath(configPath, config) : op.create().withMode(CreateMode.PERSISTENT).forPath(configPath, config),
            op.create().withMode(CreateMode.PERSISTENT).forPath(ClusterPaths.topic(topic), ClusterJson.topic(asLists(assignment))),
            op.delete().withVersion(request.version()).forPath(request.path()));
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
        SortedMap<Integer, Integer> preferred = new TreeMap<>();
        assignment.forEach((p, replicas) -> preferred.put(p, replicas.get(0)));
        SortedMap<Integer, Integer> added = assigner.assignAdditional(preferred, request.partitions(), request.assignment(),
            liveBrokers());
        log.info("Controller {} adds partitions to topic {}: partition -> broker {}", brokerId, topic, added);
        assignment.putAll(asLists(added));
        TransactionOp op = client.transactionOp();
        return List.of(
            fence(),
            op.setData().withVersion(topicStat.getVersion()).forPath(ClusterPaths.topic(topic), ClusterJson.topic(assignment)),
            op.delete().withVersion(request.version()).forPath(request.path()));
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

    private List<Integer> liveBrokers() throws Exception {
        List<Integer> ids = new ArrayList<>();
        for (String child : client.getChildren().forPath(ClusterPaths.BROKER_IDS)) {
            ClusterPaths.brokerIdOf(ClusterPaths.BROKER_IDS + "/" + child).ifPresent(ids::add);
        }
        ids.sort(null);
        return ids;
    }

    private static SortedMap<Integer, List<Integer>> asLists(SortedMap<Integer, Integer> assignment) {
        SortedMap<Integer, List<Integer>> lists = new TreeMap<>();
        assignment.forEach((p, broker) -> lists.put(p, List.of(broker)));
        return lists;
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
