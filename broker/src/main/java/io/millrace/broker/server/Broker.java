package io.millrace.broker.server;

import io.millrace.broker.cluster.IsrWriter;
import io.millrace.broker.cluster.MetadataListener;
import io.millrace.broker.cluster.ZkCluster;
import io.millrace.broker.group.DeleteGroupsHandler;
import io.millrace.broker.group.DescribeGroupsHandler;
import io.millrace.broker.group.FindCoordinatorHandler;
import io.millrace.broker.group.GroupCoordinator;
import io.millrace.broker.group.OffsetsTopicAccess;
import io.millrace.broker.group.ConsumerGroupHeartbeatHandler;
import io.millrace.broker.group.HeartbeatHandler;
import io.millrace.broker.group.JoinGroupHandler;
import io.millrace.broker.group.LeaveGroupHandler;
import io.millrace.broker.group.ListGroupsHandler;
import io.millrace.broker.group.OffsetCommitHandler;
import io.millrace.broker.group.OffsetDeleteHandler;
import io.millrace.broker.group.OffsetFetchHandler;
import io.millrace.broker.group.SyncGroupHandler;
import io.millrace.broker.group.TxnOffsetCommitHandler;
import io.millrace.broker.log.LogFileOpener;
import io.millrace.broker.log.LogManager;
import io.millrace.broker.network.Endpoint;
import io.millrace.broker.network.MetricsRegistry;
import io.millrace.broker.network.NetworkServer;
import io.millrace.broker.replica.ReplicaManager;
import io.millrace.broker.txn.AddOffsetsToTxnHandler;
import io.millrace.broker.txn.AddPartitionsToTxnHandler;
import io.millrace.broker.txn.DescribeTransactionsHandler;
import io.millrace.broker.txn.EndTxnHandler;
import io.millrace.broker.txn.ListTransactionsHandler;
import io.millrace.broker.txn.TransactionCoordinator;
import io.millrace.broker.txn.TransactionListings;
import io.millrace.common.protocol.ApiKey;
import io.millrace.common.utils.Time;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Millrace broker: the log manager, the cluster membership, the network server and the request
 * handlers between them.
 *
 * <p>{@link #startup()}: recover the logs, bind the listener, register in ZooKeeper (so clients
 * learn of the broker only once it can answer), then open the logs of the partitions assigned here
 * and apply their topics' settings; only then are produce and fetch served (before, they are
 * refused as for a partition led elsewhere, which clients retry).
 * {@link #shutdown()}: answer the waiting fetches, stop accepting and finish the requests in
 * progress, leave ZooKeeper, and close the logs (flushed, with the clean-shutdown marker).
 */
public final class Broker implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Broker.class);

    private enum State { LATENT, STARTED, STOPPED }

    private static final Duration SERVING_WAIT = Duration.ofSeconds(30);

    /** How long an InitProducerId waits for a block of producer ids before it is told to retry. */
    private static final Duration PRODUCER_ID_WAIT = Duration.ofSeconds(5);

    private final BrokerConfig config;
    private final MetricsRegistry metrics;
    private final LogManager logManager;
    private final ZkCluster cluster;
    private final FetchPurgatory purgatory;
    private final NetworkServer network;
    private final ProducerIdManager producerIds;
    private final GroupCoordinator groups;
    private final TransactionCoordinator transactions;
    private final ReplicaManager replicas;
    private final LocalPartitions partitions;
    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private volatile MetadataListener assignmentListener;
    private volatile MetadataListener topicConfigSync;

    public Broker(BrokerConfig config, Time time) {
        this(config, time, LogFileOpener.DEFAULT);
    }

    /** As above with the log files opened by {@code opener}: tests pass one that fails on demand. */
    Broker(BrokerConfig config, Time time, LogFileOpener opener) {
        this.config = config;
        int id = config.brokerId();
        this.metrics = new MetricsRegistry(Map.of("broker", String.valueOf(id)));
        this.logManager = new LogManager(config.log(), config.log().logDirs(), time, opener);
        this.cluster = new ZkCluster(config.cluster(), time);
        this.purgatory = new FetchPurgatory("millrace-broker-" + id, config.fetchMaxWaitCapMs());
        this.producerIds = new ProducerIdManager(cluster::allocateProducerIdBlock, PRODUCER_ID_WAIT,
            "millrace-broker-" + id + "-producer-ids");
        this.replicas = new ReplicaManager(id, logManager, config.replica(), time, new IsrWriter(cluster.curator()),
            purgatory::onAppend);
        OffsetsTopicAccess offsetsTopic = new OffsetsTopicAccess(id, cluster.metadata(), logManager, replicas,
            (topic, partitions, replicationFactor, configs) -> cluster.createTopic(topic, partitions, replicationFactor,
                configs, config.cluster().topicAdminTimeout()),
            purgatory::onAppend);
        this.groups = new GroupCoordinator(offsetsTopic, cluster.curator(), config.group(), time);
        this.transactions = new TransactionCoordinator(offsetsTopic, config.transaction(), time, producerIds::nextId);
        BrokerTopicMetrics topicMetrics = new BrokerTopicMetrics(metrics);
        purgatory.bindMetrics(metrics);
        replicas.bindMetrics(metrics);
        groups.bindMetrics(metrics);
        LogMetrics.bind(metrics, logManager, topicMetrics);
        logManager.addLogListener(purgatory.deletionListener());
        this.partitions = new LocalPartitions(id, logManager);
        this.network = new NetworkServer(config.network(), dispatcher(time, topicMetrics), time, metrics);
    }

    private RequestDispatcher dispatcher(Time time, BrokerTopicMetrics topicMetrics) {
        EnumMap<ApiKey, ApiHandler> handlers = new EnumMap<>(ApiKey.class);
        handlers.put(ApiKey.API_VERSIONS, new ApiVersionsHandler());
        handlers.put(ApiKey.METADATA, new MetadataHandler(cluster, config));
        handlers.put(ApiKey.PRODUCE, new ProduceHandler(cluster.metadata(), partitions, purgatory, topicMetrics, replicas,
            config.produceNetworkThreadMaxBytes()));
        handlers.put(ApiKey.FETCH, new FetchHandler(cluster.metadata(), partitions, purgatory, topicMetrics, replicas));
        handlers.put(ApiKey.LIST_OFFSETS, new ListOffsetsHandler(cluster.metadata(), partitions, replicas));
        handlers.put(ApiKey.CREATE_PARTITIONS, new CreatePartitionsHandler(cluster));
        handlers.put(ApiKey.DELETE_RECORDS, new DeleteRecordsHandler(cluster.metadata(), partitions, logManager));
        handlers.put(ApiKey.DESCRIBE_LOG_DIRS, new DescribeLogDirsHandler(logManager));
        handlers.put(ApiKey.ELECT_LEADERS, new ElectLeadersHandler(cluster));
        handlers.put(ApiKey.ALTER_PARTITION_REASSIGNMENTS, new AlterPartitionReassignmentsHandler(cluster));
        handlers.put(ApiKey.LIST_PARTITION_REASSIGNMENTS, new ListPartitionReassignmentsHandler(cluster.metadata()));
        handlers.put(ApiKey.DESCRIBE_PRODUCERS, new DescribeProducersHandler(cluster.metadata(), partitions));
        ApiHandler quotas = new NoQuotasHandler();
        handlers.put(ApiKey.DESCRIBE_CLIENT_QUOTAS, quotas);
        handlers.put(ApiKey.ALTER_CLIENT_QUOTAS, quotas);
        NoScramCredentialsHandler scram = new NoScramCredentialsHandler();
        handlers.put(ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS, scram);
        handlers.put(ApiKey.ALTER_USER_SCRAM_CREDENTIALS, scram);
        ApiHandler acls = new NoAuthorizerAclsHandler();
        handlers.put(ApiKey.DESCRIBE_ACLS, acls);
        handlers.put(ApiKey.CREATE_ACLS, acls);
        handlers.put(ApiKey.DELETE_ACLS, acls);
        handlers.put(ApiKey.OFFSET_FOR_LEADER_EPOCH, new OffsetForLeaderEpochHandler(cluster.metadata(), partitions));
        handlers.put(ApiKey.CREATE_TOPICS, new CreateTopicsHandler(cluster, config));
        handlers.put(ApiKey.DELETE_TOPICS, new DeleteTopicsHandler(cluster));
        handlers.put(ApiKey.INIT_PRODUCER_ID, new InitProducerIdHandler(producerIds, transactions));
        handlers.put(ApiKey.DESCRIBE_CONFIGS, new DescribeConfigsHandler(cluster.metadata(), config));
        handlers.put(ApiKey.DESCRIBE_CLUSTER, new DescribeClusterHandler(cluster.metadata()));
        ConfigAlterations alterations = new ConfigAlterations(cluster, config);
        handlers.put(ApiKey.INCREMENTAL_ALTER_CONFIGS, new IncrementalAlterConfigsHandler(alterations));
        handlers.put(ApiKey.ALTER_CONFIGS, new AlterConfigsHandler(alterations));
        putGroupHandlers(handlers);
        putTransactionHandlers(handlers);
        return new RequestDispatcher(handlers, new RequestMetrics(metrics), time);
    }

    private void putGroupHandlers(EnumMap<ApiKey, ApiHandler> handlers) {
        handlers.put(ApiKey.FIND_COORDINATOR, new FindCoordinatorHandler(groups, transactions));
        handlers.put(ApiKey.JOIN_GROUP, new JoinGroupHandler(groups));
        handlers.put(ApiKey.SYNC_GROUP, new SyncGroupHandler(groups));
        handlers.put(ApiKey.HEARTBEAT, new HeartbeatHandler(groups));
        handlers.put(ApiKey.LEAVE_GROUP, new LeaveGroupHandler(groups));
        handlers.put(ApiKey.OFFSET_COMMIT, new OffsetCommitHandler(groups, cluster.metadata()));
        handlers.put(ApiKey.OFFSET_FETCH, new OffsetFetchHandler(groups));
        handlers.put(ApiKey.LIST_GROUPS, new ListGroupsHandler(groups));
        handlers.put(ApiKey.DESCRIBE_GROUPS, new DescribeGroupsHandler(groups));
        handlers.put(ApiKey.DELETE_GROUPS, new DeleteGroupsHandler(groups));
        handlers.put(ApiKey.OFFSET_DELETE, new OffsetDeleteHandler(groups));
        handlers.put(ApiKey.CONSUMER_GROUP_HEARTBEAT, new ConsumerGroupHeartbeatHandler(groups, cluster.metadata()));
        handlers.put(ApiKey.TXN_OFFSET_COMMIT, new TxnOffsetCommitHandler(groups, cluster.metadata()));
    }

    private void putTransactionHandlers(EnumMap<ApiKey, ApiHandler> handlers) {
        TransactionListings listings = new TransactionListings(transactions);
        handlers.put(ApiKey.ADD_PARTITIONS_TO_TXN, new AddPartitionsToTxnHandler(transactions, cluster.metadata()));
        handlers.put(ApiKey.END_TXN, new EndTxnHandler(transactions));
        handlers.put(ApiKey.WRITE_TXN_MARKERS, new WriteTxnMarkersHandler(cluster.metadata(), partitions, replicas,
            purgatory::onAppend, groups::onTransactionMarker, config.transaction().stateWriteTimeoutMs()));
        handlers.put(ApiKey.ADD_OFFSETS_TO_TXN, new AddOffsetsToTxnHandler(transactions, cluster.metadata()));
        handlers.put(ApiKey.DESCRIBE_TRANSACTIONS, new DescribeTransactionsHandler(listings));
        handlers.put(ApiKey.LIST_TRANSACTIONS, new ListTransactionsHandler(listings));
    }

    /**
     * Where the cluster membership records its ZooKeeper session for the next run: the first live
     * log directory, whose lock this broker now holds.
     */
    private void recordSessionInFirstLogDir() {
        List<Path> dirs = logManager.liveLogDirs();
        if (!dirs.isEmpty()) {
            cluster.recordSessionIn(dirs.get(0));
        }
    }

    /** Starts the broker; on failure, stops what was started and rethrows. */
    public void startup() throws InterruptedException {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("Broker " + config.brokerId() + " was already started");
        }
        try {
            logManager.startup();
            recordSessionInFirstLogDir();
            network.start();
            Endpoint listener = config.network().listeners().get(0);
            Optional<Endpoint> advertised = config.network().advertisedListener(listener.listenerName());
            cluster.start(advertised.map(Endpoint::host).orElseGet(this::advertisedHost),
                advertised.map(Endpoint::port).orElseGet(network::boundPort));
            producerIds.start();
            groups.start();
            transactions.startup();
            // Before the assignment listener's first report, so that no config change falls between the two.
            topicConfigSync = new TopicConfigSync(config.brokerId(), logManager);
            cluster.metadata().addListener(topicConfigSync);
            assignmentListener = cluster.metadata().addAssignmentListener(config.brokerId(),
                new LogAssignments(config.brokerId(), logManager));
            cluster.metadata().addListenerFromCurrent(replicas); // after the logs are opened, on the same thread
            // next on the same thread, once the logs have their topics' settings: records may come in
            java.util.concurrent.CompletableFuture<Void> serving = new java.util.concurrent.CompletableFuture<>();
            cluster.metadata().addListenerFromCurrent((previous, current) -> {
                partitions.startServing();
                serving.complete(null);
            });
            awaitServing(serving);
            LOG.info("Broker {} started on port {}", config.brokerId(), network.boundPort());
        } catch (InterruptedException | RuntimeException e) {
            shutdown();
            throw e;
        }
    }

    /** Returns once the logs take records, so that a caller of {@link #startup} may produce at once. */
    private static void awaitServing(java.util.concurrent.CompletableFuture<Void> serving) throws InterruptedException {
        try {
            serving.get(SERVING_WAIT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            LOG.warn("The logs' settings were not applied within {}; serving once they are", SERVING_WAIT);
        }
    }

    private String advertisedHost() {
        Endpoint endpoint = config.network().listeners().get(0);
        String host = endpoint.host();
        if (host != null && !host.isEmpty() && !host.equals("0.0.0.0") && !host.equals("::")) {
            return host;
        }
        try {
            return InetAddress.getLocalHost().getCanonicalHostName();
        } catch (UnknownHostException e) {
            return "localhost";
        }
    }

    /** The port of the first listener, once started. */
    public int boundPort() {
        return network.boundPort();
    }

    public int brokerId() {
        return config.brokerId();
    }

    public ZkCluster cluster() {
        return cluster;
    }

    public LogManager logManager() {
        return logManager;
    }

    /** The replicas of replicated partitions on this broker, leaders and followers. */
    public ReplicaManager replicaManager() {
        return replicas;
    }

    /** This broker's group coordinator. */
    public GroupCoordinator groupCoordinator() {
        return groups;
    }

    /** The fetches waiting for data, for tests. */
    FetchPurgatory purgatory() {
        return purgatory;
    }

    public MetricsRegistry metrics() {
        return metrics;
    }

    /** Stops the broker, cleanly; idempotent, and safe on a broker that failed to start. */
    public void shutdown() {
        if (state.getAndSet(State.STOPPED) == State.STOPPED) {
            return;
        }
        LOG.info("Broker {} shutting down", config.brokerId());
        cluster.controlledShutdown(); // while still serving, so clients find the new leaders at once
        // Leading nothing now, it must not fetch its way back into the ISRs it was just taken out of.
        cluster.metadata().removeListener(replicas);
        replicas.close();
        purgatory.close();
        transactions.close();
        producerIds.close();
        groups.close();
        if (!network.shutdown(config.shutdownTimeout())) {
            LOG.warn("Requests still in progress after {}; their connections were closed", config.shutdownTimeout());
        }
        for (MetadataListener listener : new MetadataListener[] {assignmentListener, topicConfigSync}) {
            if (listener != null) {
                cluster.metadata().removeListener(listener);
            }
        }
        // The logs first, as Kafka does: flushed and marked clean whatever ZooKeeper does next.
        logManager.shutdown();
        leaveClusterWithin(config.shutdownZooKeeperTimeout());
        metrics.close();
        LOG.info("Broker {} shut down", config.brokerId());
    }

    /**
     * Leaves the cluster, giving up after {@code timeout}: with ZooKeeper unreachable, Curator would
     * retry the deregistration for tens of seconds. The session then expires on the server, which
     * removes this broker's ephemeral znodes all the same.
     */
    private void leaveClusterWithin(Duration timeout) {
        Thread leaving = new Thread(cluster::close, "broker-" + config.brokerId() + "-leaving-cluster");
        leaving.setDaemon(true);
        leaving.start();
        try {
            leaving.join(Math.max(1, timeout.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (leaving.isAlive()) {
            LOG.warn("Broker {} could not leave the cluster within {} (is ZooKeeper down?); stopping anyway, its "
                + "session will expire", config.brokerId(), timeout);
        }
    }

    /**
     * Dies without a clean shutdown, for tests of what a killed broker leaves behind: connections
     * are dropped, the ZooKeeper session ends without deregistering, and the logs are neither
     * flushed nor marked clean, so the next start on the same directories runs recovery.
     */
    void crash() {
        if (state.getAndSet(State.STOPPED) == State.STOPPED) {
            return;
        }
        LOG.warn("Broker {} crashing (simulated)", config.brokerId());
        replicas.close();
        purgatory.close();
        transactions.close();
        groups.close();
        network.shutdown(Duration.ZERO);
        cluster.abandonSession();
        logManager.halt();
        metrics.close();
    }

    @Override
    public void close() {
        shutdown();
    }
}
