package io.millrace.broker.cluster;

import io.millrace.common.TopicPartition;
import io.millrace.common.errors.MillraceException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.utils.Time;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One broker's membership in a Millrace cluster, and the API the broker server calls: the
 * {@link #metadata() metadata view} for Metadata requests and the log layer, and
 * {@link #createTopic}/{@link #deleteTopic} for the admin requests. It owns one Curator client
 * and, on it, the broker's {@link BrokerRegistration registration}, its {@link MetadataCache},
 * its place in the {@link ClusterController controller} election and the {@link TopicAdmin}
 * requester. The znode tree is described in {@link ClusterPaths} and {@code docs/zookeeper.md}.
 *
 * <p><b>Connection states</b>, as Curator reports them:
 * <ul>
 * <li>SUSPENDED (connection lost, session perhaps still alive): the broker keeps serving from
 *     its last metadata view; the controller latch stands down until the connection returns.</li>
 * <li>LOST (session expired): ZooKeeper has dropped the registration and the latch node; the
 *     broker is unregistered, and says so, until the connection returns.</li>
 * <li>RECONNECTED: the broker registers again if its registration is missing (or is a leftover of
 *     its expired session); the latch re-checks leadership; the cache re-reads the tree.</li>
 * </ul>
 *
 * <p>Lifecycle LATENT → STARTED → CLOSED: {@link #start} once, after the server has bound its
 * port; {@link #close} once (closing also fails any pending admin futures). Thread-safe.
 */
public final class ZkCluster implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ZkCluster.class);

    public enum State { LATENT, STARTED, CLOSED }

    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final ClusterConfig config;
    private final Time time;
    private final int brokerId;
    private final CuratorFramework client;
    private final MetadataCache metadata;
    private final ClusterController controller;
    private final TopicAdmin admin;
    private final TopicConfigAdmin topicConfigs;
    private final ProducerIdAllocator producerIds;
    private final ExecutorService registrationThread;
    private volatile BrokerRegistration registration;
    private volatile ConnectionState connectionState;
    private volatile PreviousSession previousSession;

    public ZkCluster(ClusterConfig config, Time time) {
        this(config, time, new Random());
    }

    /** With the controller's source of round-robin start positions, for tests. */
    ZkCluster(ClusterConfig config, Time time, Random assignmentRandom) {
        this.config = config;
        this.time = time;
        this.brokerId = config.brokerId();
        String name = "millrace-broker-" + brokerId;
        this.client = CuratorClients.forCluster(config);
        this.metadata = new MetadataCache(client, name);
        this.controller = new ClusterController(client, brokerId, new PartitionAssigner(assignmentRandom), metadata,
            overrides -> uncleanElectionAllowed(config, overrides), config.leaderRebalanceInterval(), name);
        this.admin = new TopicAdmin(client, metadata, name);
        this.topicConfigs = new TopicConfigAdmin(client, metadata, name);
        this.producerIds = new ProducerIdAllocator(client, brokerId);
        this.registrationThread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name + "-registration");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Records the session that holds this broker's registration in a file of {@code dir}, so that a
     * run started after a crash ends that session at once rather than waiting for it to expire (see
     * {@link PreviousSession}). Call before {@link #start}; the broker gives its first log directory,
     * which its lock keeps to one process.
     */
    public void recordSessionIn(Path dir) {
        this.previousSession = new PreviousSession(dir.resolve(PreviousSession.FILE_NAME));
    }

    /**
     * Connects, reads the cluster's metadata, registers this broker as reachable at
     * {@code host:port} and joins the controller election. Blocks until all of that is done and
     * this broker's metadata view lists the broker itself. A registration left by this broker's
     * previous run (same host and port, its session not yet expired after a crash) goes with that
     * session: ended at once when the previous run recorded it ({@link #recordSessionIn}), else
     * waited out, for up to the session timeout and a margin.
     *
     * @throws BrokerIdConflictException if a live broker at another address holds this broker's id,
     *                                   or one at this address still does after that wait
     * @throws MillraceException if ZooKeeper cannot be reached within {@code zookeeper.connection.timeout.ms}
     */
    public void start(String host, int port) throws InterruptedException {
        Objects.requireNonNull(host, "host");
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("Cannot start broker " + brokerId + "'s cluster membership: it is " + state.get());
        }
        try {
            client.getConnectionStateListenable().addListener(this::onConnectionStateChange);
            connect();
            createDirectories();
            metadata.start(Duration.ofMillis(config.connectionTimeoutMs()));
            BrokerRegistration ours = new BrokerRegistration(client, brokerId, host, port, config.rack(),
                config.sessionTimeoutMs(), time, previousSession);
            ours.register();
            registration = ours;
            awaitOwnRegistration();
            metadata.addListener(this::reRegisterIfMissing);
            metadata.addListener(controller.requestWatcher());
            controller.start();
            log.info("Broker {} joined the cluster at {} as {}:{}", brokerId, config.zookeeperConnect(), host, port);
        } catch (InterruptedException | RuntimeException e) {
            close();
            throw e;
        } catch (Exception e) {
            close();
            throw new MillraceException("Broker " + brokerId + " could not join the cluster: " + e, e);
        }
    }

    /** Leaves the controller election, deregisters, and closes the ZooKeeper session. Idempotent. */
    @Override
    public void close() {
        if (state.getAndSet(State.CLOSED) == State.CLOSED) {
            return;
        }
        admin.close();
        topicConfigs.close();
        controller.close();
        // Interrupt a re-registration stuck in Curator's retries first: it holds the registration's lock.
        registrationThread.shutdownNow();
        BrokerRegistration ours = registration;
        if (ours != null) {
            ours.deregister();
        }
        metadata.close();
        client.close();
        log.info("Broker {} left the cluster", brokerId);
    }

    /**
     * Drops the ZooKeeper session without leaving the cluster, as a killed process would: no
     * deregistration and no withdrawal from the controller election first. ZooKeeper deletes this
     * broker's ephemeral znodes when the session ends (here at once, since the session is closed
     * rather than left to time out). For tests that simulate a crash in one JVM. Idempotent.
     */
    public void abandonSession() {
        if (state.getAndSet(State.CLOSED) == State.CLOSED) {
            return;
        }
        registrationThread.shutdownNow();
        admin.close();
        topicConfigs.close();
        metadata.close();
        client.close();
        controller.close(); // only stops its thread: the latch went with the session
        log.warn("Broker {} dropped its ZooKeeper session without deregistering", brokerId);
    }

    public State state() {
        return state.get();
    }

    public int brokerId() {
        return brokerId;
    }

    /** This broker's view of the cluster. */
    public MetadataCache metadata() {
        return metadata;
    }

    /** Whether this broker is the controller right now. */
    public boolean isController() {
        return controller.isController();
    }

    /** Whether this broker believes its registration znode is in place. */
    public boolean isRegistered() {
        BrokerRegistration ours = registration;
        return ours != null && ours.isRegistered();
    }

    /** The last connection state Curator reported; null before the first connection. */
    public ConnectionState connectionState() {
        return connectionState;
    }

    /** {@link #createTopic(String, int, Map, Duration)} with {@code topic.admin.timeout.ms}. */
    public CompletableFuture<Void> createTopic(String topic, int partitions, Map<String, String> configs) {
        return createTopic(topic, partitions, configs, config.topicAdminTimeout());
    }

    /**
     * Asks the controller to create a topic and completes when this broker's metadata shows it.
     * Fails with {@link io.millrace.common.errors.InvalidTopicException},
     * {@link io.millrace.common.errors.InvalidPartitionsException} (below 1 or above 10,000) or
     * {@link io.millrace.common.config.ConfigException} for a bad request,
     * {@link io.millrace.common.errors.TopicExistsException} if the topic exists or another
     * request is creating it, and {@link java.util.concurrent.TimeoutException} after
     * {@code timeout} (the request is then withdrawn if the controller has not taken it up).
     * Never blocks the caller.
     */
    public CompletableFuture<Void> createTopic(String topic, int partitions, Map<String, String> configs, Duration timeout) {
        return createTopic(topic, partitions, 1, configs, timeout);
    }

    /**
     * {@link #createTopic(String, int, Map, Duration)} with {@code replicationFactor} replicas per
     * partition on distinct brokers; fails with {@link InvalidReplicationFactorException} when it is
     * below 1 or above the live brokers.
     */
    public CompletableFuture<Void> createTopic(String topic, int partitions, int replicationFactor, Map<String, String> configs,
                                               Duration timeout) {
        return createTopic(topic, partitions, replicationFactor, configs, List.of(), timeout);
    }

    /** As above with the replicas of each partition chosen (all as many, distinct, live; empty: placed by the controller). */
    public CompletableFuture<Void> createTopic(String topic, int partitions, int replicationFactor, Map<String, String> configs,
                                               List<List<Integer>> assignment, Duration timeout) {
        return state.get() == State.STARTED ? admin.createTopic(topic, partitions, replicationFactor, configs, assignment, timeout)
            : notStarted();
    }

    /**
     * Checks, against this broker's view, that topics with {@code replicationFactor} replicas can be
     * created now, as {@link #createTopic(String, int, int, Map, Duration)} would; for validate-only requests.
     *
     * @throws InvalidReplicationFactorException when they cannot
     */
    public void checkReplicationFactor(int replicationFactor) {
        ReplicaPlacement.validate(replicationFactor, metadata.snapshot().liveBrokers().size());
    }

    /**
     * Controlled shutdown: asks the controller to move the leadership of this broker's partitions
     * to other in-sync replicas, and waits, up to {@code controlled.shutdown.timeout.ms}, until it
     * has. Returns at once when {@code controlled.shutdown.enable} is off or this broker leads no
     * partition another live in-sync replica could take (it leads nothing, or is the last broker).
     * Called before the broker stops serving; never throws.
     *
     * @return whether leadership was moved (or nothing had to move)
     */
    public boolean controlledShutdown() {
        if (state.get() != State.STARTED || !config.controlledShutdownEnable()) {
            return true;
        }
        return new ControlledShutdown(client, metadata, brokerId).run(config.controlledShutdownTimeout());
    }

    /**
     * Elects leaders now, as Kafka's ElectLeaders asks: preferred replicas, or with {@code unclean}
     * any live replica for partitions whose leader is gone; {@code partitions} null means all. Only
     * the controller elects: elsewhere each partition is NOT_CONTROLLER. Completes, with what became
     * of each partition, once this broker's metadata shows the new leaders, as Kafka's answer waits
     * for them; a partition whose new leader it has not seen within {@code timeout} is REQUEST_TIMED_OUT.
     */
    public CompletableFuture<Map<TopicPartition, Errors>> electLeaders(boolean unclean, Collection<TopicPartition> partitions,
                                                                      Duration timeout) {
        if (state.get() != State.STARTED) {
            return CompletableFuture.failedFuture(new MillraceException("Broker " + brokerId + " is not in the cluster: it is "
                + state.get()));
        }
        return controller.elect(unclean, partitions).thenCompose(outcomes -> metadata.whenTrue(s -> leadersShown(s, outcomes))
            .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
            .handle((shown, timedOut) -> errors(outcomes, metadata.snapshot())));
    }

    /** Starts, changes or cancels (null target) moves on the controller ({@link ReassignmentDuty}), answered once written
     *  and shown by this broker's metadata (or after {@code timeout}), so that a list right after sees them, as on Kafka. */
    public CompletableFuture<Map<TopicPartition, ReassignmentOutcome>> alterReassignments(
        Map<TopicPartition, List<Integer>> targets, boolean allowReplicationFactorChange, Duration timeout) {
        if (state.get() != State.STARTED) {
            return CompletableFuture.failedFuture(new MillraceException("Broker " + brokerId + " is not in the cluster: it is "
                + state.get()));
        }
        return controller.alterReassignments(targets, allowReplicationFactorChange).thenCompose(outcomes -> metadata
            .whenTrue(s -> outcomes.entrySet().stream().allMatch(e -> e.getValue().shownIn(s, e.getKey())))
            .orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).handle((shown, late) -> outcomes));
    }

    private static boolean leadersShown(ClusterSnapshot snapshot, Map<TopicPartition, ElectionOutcome> outcomes) {
        return outcomes.entrySet().stream().allMatch(e -> e.getValue().error() != Errors.NONE
            || leaderShown(snapshot, e.getKey(), e.getValue()));
    }

    private static boolean leaderShown(ClusterSnapshot snapshot, TopicPartition tp, ElectionOutcome outcome) {
        return snapshot.partitionState(tp.topic(), tp.partition()).map(PartitionState::leader).orElse(ClusterSnapshot.NO_LEADER)
            == outcome.leader();
    }

    private static Map<TopicPartition, Errors> errors(Map<TopicPartition, ElectionOutcome> outcomes, ClusterSnapshot snapshot) {
        Map<TopicPartition, Errors> errors = new LinkedHashMap<>();
        outcomes.forEach((tp, outcome) -> errors.put(tp, outcome.error() != Errors.NONE || leaderShown(snapshot, tp, outcome)
            ? outcome.error() : Errors.REQUEST_TIMED_OUT));
        return errors;
    }

    /** A topic's unclean.leader.election.enable override, else the broker's setting, else false. */
    private static boolean uncleanElectionAllowed(ClusterConfig config, Map<String, String> topicOverrides) {
        String key = io.millrace.broker.log.TopicReplicationConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG;
        Object brokerValue = config.originals().get(key);
        return Boolean.parseBoolean(topicOverrides.getOrDefault(key, brokerValue == null ? "false" : String.valueOf(brokerValue)));
    }

    /**
     * Asks the controller to grow a topic to {@code count} partitions and completes when this
     * broker's metadata shows them; each broker then opens the logs of the new partitions it got.
     * {@code assignment} names the replicas of each new partition in order (first the preferred
     * leader, as many as the topic has), or is empty to let the controller place them. With {@code validateOnly} the request is only checked.
     * Fails with {@link io.millrace.common.errors.UnknownTopicOrPartitionException} for a topic that
     * does not exist, {@link io.millrace.common.errors.InvalidPartitionsException} unless {@code count}
     * exceeds the current count (or for more than 10,000), {@link InvalidReplicaAssignmentException}
     * for an assignment of the wrong length, the wrong number of replicas or naming brokers that are not live, and
     * {@link java.util.concurrent.TimeoutException} after {@code timeout}. Never blocks the caller.
     */
    public CompletableFuture<Void> createPartitions(String topic, int count, List<List<Integer>> assignment, boolean validateOnly,
                                                    Duration timeout) {
        return state.get() == State.STARTED ? admin.createPartitions(topic, count, assignment, validateOnly, timeout) : notStarted();
    }

    /** {@link #createPartitions(String, int, List, boolean, Duration)} with {@code topic.admin.timeout.ms}. */
    public CompletableFuture<Void> createPartitions(String topic, int count, List<List<Integer>> assignment, boolean validateOnly) {
        return createPartitions(topic, count, assignment, validateOnly, config.topicAdminTimeout());
    }

    /** {@link #deleteTopic(String, Duration)} with {@code topic.admin.timeout.ms}. */
    public CompletableFuture<Void> deleteTopic(String topic) {
        return deleteTopic(topic, config.topicAdminTimeout());
    }

    /**
     * Asks the controller to delete a topic and completes when this broker's metadata no longer
     * shows it. Fails with {@link io.millrace.common.errors.UnknownTopicOrPartitionException} if
     * there is no such topic, {@link io.millrace.common.errors.InvalidTopicException} for an
     * illegal name, and {@link java.util.concurrent.TimeoutException} after {@code timeout}. If
     * another deletion of the topic is pending, waits for that one. Never blocks the caller.
     */
    public CompletableFuture<Void> deleteTopic(String topic, Duration timeout) {
        return state.get() == State.STARTED ? admin.deleteTopic(topic, timeout) : notStarted();
    }

    /**
     * Replaces a topic's configuration overrides with {@code change} applied to the current ones, in
     * {@code /millrace/config/topics/<topic>}; every broker hosting the topic applies them to its logs
     * when its metadata shows them. Completes with the overrides written, once this broker's metadata
     * shows them (or after {@code topic.admin.timeout.ms}). {@code change} may run more than once
     * (after a concurrent change) and may throw to refuse the change, failing the future. Fails with
     * {@link io.millrace.common.errors.UnknownTopicOrPartitionException} when there is no such topic.
     * Never blocks the caller.
     */
    public CompletableFuture<Map<String, String>> alterTopicConfig(String topic, UnaryOperator<Map<String, String>> change) {
        return state.get() == State.STARTED ? topicConfigs.alter(topic, change, config.topicAdminTimeout())
            : CompletableFuture.failedFuture(new MillraceException("Broker " + brokerId + " is not in the cluster: it is "
                + state.get()));
    }

    /**
     * Takes the next block of {@value ProducerIdAllocator#BLOCK_SIZE} producer ids from ZooKeeper
     * ({@link ClusterPaths#PRODUCER_ID_BLOCK}). Blocks never overlap, across brokers and restarts.
     * Blocks the caller for ZooKeeper round trips (and Curator's retries while disconnected), so
     * call it off request threads.
     *
     * @throws MillraceException if this broker is not in the cluster, the ids are exhausted or the
     *                           znode holds data that does not parse
     * @throws Exception         a ZooKeeper failure that outlasted Curator's retries
     */
    public ProducerIdBlock allocateProducerIdBlock() throws Exception {
        if (state.get() != State.STARTED) {
            throw new MillraceException("Broker " + brokerId + " is not in the cluster: it is " + state.get());
        }
        ProducerIdBlock block = producerIds.allocate();
        log.info("Broker {} took producer ids {} to {}", brokerId, block.firstId(), block.lastId());
        return block;
    }

    private CompletableFuture<Void> notStarted() {
        return CompletableFuture.failedFuture(new MillraceException("Broker " + brokerId + " is not in the cluster: it is " + state.get()));
    }

    /** The Curator client: the group coordinator's offset registry, and tests that break the session. */
    public CuratorFramework curator() {
        return client;
    }

    private void connect() throws InterruptedException {
        client.start();
        if (!client.blockUntilConnected(config.connectionTimeoutMs(), TimeUnit.MILLISECONDS)) {
            throw new MillraceException("Broker " + brokerId + " could not connect to ZooKeeper at " + config.zookeeperConnect()
                + " within " + config.connectionTimeoutMs() + " ms");
        }
    }

    /** So that, once started, this broker's metadata always lists the broker itself. */
    private void awaitOwnRegistration() throws Exception {
        try {
            metadata.whenTrue(s -> s.isLive(brokerId)).get(config.connectionTimeoutMs(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new MillraceException("Broker " + brokerId + " registered but did not see its registration within "
                + config.connectionTimeoutMs() + " ms");
        }
    }

    private void createDirectories() throws Exception {
        for (String path : ClusterPaths.DIRECTORIES) {
            try {
                client.create().forPath(path);
            } catch (KeeperException.NodeExistsException e) {
                // created by another broker, or by us before
            }
        }
    }

    private void onConnectionStateChange(CuratorFramework ignored, ConnectionState newState) {
        connectionState = newState;
        switch (newState) {
            case CONNECTED -> log.info("Broker {} connected to ZooKeeper", brokerId);
            case SUSPENDED -> log.warn("Broker {} lost its ZooKeeper connection; it keeps serving from its last metadata view "
                + "and stands down as controller until the connection returns", brokerId);
            case LOST -> {
                log.error("Broker {}'s ZooKeeper session expired: its registration is gone until the connection returns", brokerId);
                BrokerRegistration ours = registration;
                if (ours != null) {
                    ours.sessionLost();
                }
            }
            case RECONNECTED -> {
                log.info("Broker {} reconnected to ZooKeeper", brokerId);
                scheduleReRegistration();
            }
            case READ_ONLY -> log.warn("Broker {} is connected to a read-only ZooKeeper server", brokerId);
            default -> log.debug("Broker {}: ZooKeeper connection state {}", brokerId, newState);
        }
    }

    /** The view shows us missing (deleted by hand, or a holder of our id went away): register again. */
    private void reRegisterIfMissing(ClusterSnapshot previous, ClusterSnapshot current) {
        if (!current.isLive(brokerId) && connectionState != ConnectionState.SUSPENDED && connectionState != ConnectionState.LOST) {
            scheduleReRegistration();
        }
    }

    private void scheduleReRegistration() {
        BrokerRegistration ours = registration;
        if (ours == null || state.get() != State.STARTED) {
            return;
        }
        try {
            registrationThread.execute(ours::ensureRegistered);
        } catch (RejectedExecutionException e) {
            // closing
        }
    }
}
