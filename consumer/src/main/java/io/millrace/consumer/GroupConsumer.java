package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.BootstrapServers;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.config.ConfigException;
import io.millrace.common.serialization.Deserializer;
import io.millrace.consumer.internals.ConsumerRegistration;
import io.millrace.consumer.internals.FetchedChunk;
import io.millrace.consumer.internals.FetcherManager;
import io.millrace.consumer.internals.GroupRegistry;
import io.millrace.consumer.internals.OffsetLookup;
import io.millrace.consumer.internals.RecordConverter;
import io.millrace.consumer.internals.Rebalancer;
import io.millrace.consumer.internals.SubscribedPartitions;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The paper's group consumer: consumers sharing a {@code group.id} split the partitions of their
 * topics among themselves through ZooKeeper, with no master, and each reads its partitions as
 * never-ending {@link MessageStream}s.
 *
 * <pre>
 * GroupConsumer&lt;String, String&gt; consumer = new GroupConsumer&lt;&gt;(config, new StringDeserializer(), new StringDeserializer());
 * MessageStream&lt;String, String&gt; stream = consumer.createMessageStreams(Map.of("events", 1)).get("events").get(0);
 * for (ConsumerRecord&lt;String, String&gt; record : stream) { ... }   // blocks for the next message
 * </pre>
 *
 * <p>Coordination (see docs/zookeeper.md): the consumer registers itself (ephemeral) under
 * {@code /millrace/consumers/<group>/ids}, watches that directory and the broker registry, and on
 * every change runs Algorithm 1 ({@link Rebalancer}): it takes its range of every subscribed
 * topic's partitions (listed by the Metadata API, so any Kafka-protocol broker will do), claims them
 * in the ownership registry and fetches from the committed offsets. Offsets are committed every
 * {@code auto.commit.interval.ms}, on every rebalance, on {@link #close()} and by {@link #commit()}:
 * delivery is at least once; after a crash the group reads again from the last commit. The
 * partition lists are also checked every {@code metadata.max.age.ms}, for brokers without a
 * registry in ZooKeeper. When the ZooKeeper session is lost the consumer stops delivering and drops
 * its partitions; once reconnected it registers again and rebalances.
 *
 * <p>Thread-safe; each stream is meant for one reading thread.
 */
public final class GroupConsumer<K, V> implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GroupConsumer.class);

    private final ConsumerConfig config;
    private final RecordConverter<K, V> converter;
    private final String consumerId;
    private final CuratorFramework curator;
    private final GroupRegistry registry;
    private final NetworkClient client;
    private final Metadata metadata;
    private final OffsetLookup offsets;
    private final ScheduledExecutorService scheduler;
    private final ExecutorService rebalanceThread;
    private final FetcherManager fetchers;
    private final AtomicBoolean rebalancePending = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final List<MessageStream<K, V>> streams = new ArrayList<>();
    private final List<CuratorCache> watches = new ArrayList<>();
    private volatile ConsumerRegistration registration;
    private volatile Rebalancer rebalancer;
    private RebalanceListener rebalanceListener = RebalanceListener.NONE;

    /**
     * Connects to ZooKeeper ({@code zookeeper.connect}, required) and prepares the connections to the
     * brokers ({@code bootstrap.servers}, or the brokers registered in ZooKeeper). Nothing is consumed
     * until {@link #createMessageStreams} or {@link #createMessageStreamsByFilter}.
     */
    public GroupConsumer(ConsumerConfig config, Deserializer<K> keyDeserializer, Deserializer<V> valueDeserializer) {
        this.config = config;
        if (config.groupId().isEmpty()) {
            throw new ConfigException(ConsumerConfig.GROUP_ID_CONFIG + " is required by the group consumer");
        }
        String zookeeper = config.getString(CommonClientConfigs.ZOOKEEPER_CONNECT_CONFIG);
        if (zookeeper == null || zookeeper.isEmpty()) {
            throw new ConfigException(CommonClientConfigs.ZOOKEEPER_CONNECT_CONFIG + " is required by the group consumer");
        }
        this.converter = new RecordConverter<>(keyDeserializer, valueDeserializer);
        this.consumerId = consumerId(config);
        this.curator = connect(zookeeper, config);
        this.registry = new GroupRegistry(curator, config.groupId());
        this.client = new NetworkClient(CommonClientConfigs.networkOptions(config, consumerId));
        long retryBackoffMs = config.getLong(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG);
        int requestTimeoutMs = config.getInt(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG);
        this.metadata = new Metadata(client, CommonClientConfigs.bootstrap(config), retryBackoffMs,
            config.getLong(CommonClientConfigs.METADATA_MAX_AGE_MS_CONFIG));
        this.offsets = new OffsetLookup(client, metadata, requestTimeoutMs, retryBackoffMs, config.readCommitted());
        this.scheduler = Executors.newScheduledThreadPool(2, daemon(consumerId + "-scheduler"));
        this.rebalanceThread = Executors.newSingleThreadExecutor(daemon(consumerId + "-rebalance"));
        this.fetchers = new FetcherManager(client, metadata, config, offsets, consumerId, requestTimeoutMs, scheduler,
            retryBackoffMs);
    }

    private static String consumerId(ConsumerConfig config) {
        String configured = config.getString(ConsumerConfig.CONSUMER_ID_CONFIG);
        if (configured != null && !configured.isEmpty()) {
            return configured;
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "unknown-host";
        }
        return config.groupId() + "_" + host + "-" + System.currentTimeMillis() + "-"
            + UUID.randomUUID().toString().substring(0, 8);
    }

    private static CuratorFramework connect(String zookeeper, ConsumerConfig config) {
        int connectionTimeoutMs = config.getInt(ConsumerConfig.ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG);
        CuratorFramework curator = CuratorFrameworkFactory.newClient(zookeeper,
            config.getInt(ConsumerConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG), connectionTimeoutMs,
            new ExponentialBackoffRetry(100, 5));
        curator.start();
        try {
            if (!curator.blockUntilConnected(connectionTimeoutMs, TimeUnit.MILLISECONDS)) {
                curator.close();
                throw new io.millrace.common.errors.TimeoutException("No connection to ZooKeeper at " + zookeeper
                    + " within " + connectionTimeoutMs + " ms");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            curator.close();
            throw new io.millrace.common.errors.TimeoutException("Interrupted while connecting to ZooKeeper");
        }
        return curator;
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * Subscribes to each topic with the given number of streams and joins the group. Returns, per
     * topic, its streams; the group's partitions of the topic are spread over the streams of every
     * member. May be called once.
     *
     * @throws KafkaProtocolGroupException when the group id is in use by Kafka-protocol consumers
     */
    public Map<String, List<MessageStream<K, V>>> createMessageStreams(Map<String, Integer> streamsPerTopic) {
        Map<String, List<MessageStream<K, V>>> byTopic = new LinkedHashMap<>();
        streamsPerTopic.forEach((topic, count) -> byTopic.put(topic, newStreams(count)));
        start(new ConsumerRegistration(consumerId, streamsPerTopic, false, System.currentTimeMillis()),
            (topic, stream) -> byTopic.get(topic).get(stream).queue());
        return byTopic;
    }

    /**
     * Subscribes to every topic whose whole name matches {@code regex} (internal topics, starting with
     * "__", excepted), now or later, with {@code streams} streams shared by all of them. May be called once.
     *
     * @throws KafkaProtocolGroupException when the group id is in use by Kafka-protocol consumers
     */
    public List<MessageStream<K, V>> createMessageStreamsByFilter(String regex, int streams) {
        Pattern.compile(regex);   // fail here, not in the rebalance, when it does not compile
        List<MessageStream<K, V>> list = newStreams(streams);
        start(new ConsumerRegistration(consumerId, Map.of(regex, streams), true, System.currentTimeMillis()),
            (topic, stream) -> list.get(stream).queue());
        return list;
    }

    private List<MessageStream<K, V>> newStreams(int count) {
        if (count < 1) {
            throw new IllegalArgumentException("A subscription needs at least one stream, not " + count);
        }
        int capacity = config.getInt(ConsumerConfig.QUEUED_MAX_MESSAGE_CHUNKS_CONFIG);
        long timeoutMs = config.getInt(ConsumerConfig.CONSUMER_TIMEOUT_MS_CONFIG);
        boolean checkCrcs = config.getBoolean(ConsumerConfig.CHECK_CRCS_CONFIG);
        List<MessageStream<K, V>> created = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            created.add(new MessageStream<>(new ArrayBlockingQueue<>(capacity), converter, timeoutMs, checkCrcs));
        }
        streams.addAll(created);
        return created;
    }

    private synchronized void start(ConsumerRegistration me, BiFunction<String, Integer, BlockingQueue<FetchedChunk>> queues) {
        if (registration != null) {
            throw new IllegalStateException("This consumer has subscribed already: " + registration.subscription());
        }
        registry.checkNoKafkaMembers();
        registration = me;
        rebalancer = new Rebalancer(registry, me, new SubscribedPartitions(metadata,
            config.getInt(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG)), queues, fetchers, offsets, config);
        rebalancer.setListener(rebalanceListener);
        curator.getConnectionStateListenable().addListener((c, state) -> onConnectionStateChange(state));
        registry.register(me);
        watch(registry.paths().ids());
        watch(BootstrapServers.BROKER_IDS_PATH);
        scheduleBackgroundWork();
        requestRebalance();
    }

    private void watch(String path) {
        CuratorCache cache = CuratorCache.build(curator, path);
        cache.listenable().addListener(CuratorCacheListener.builder()
            .forAll((type, oldData, data) -> requestRebalance()).build());
        cache.start();
        watches.add(cache);
    }

    private void scheduleBackgroundWork() {
        if (config.getBoolean(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG)) {
            long interval = config.getInt(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG);
            scheduler.scheduleWithFixedDelay(() -> quietly("auto-commit", this::commit), interval, interval,
                TimeUnit.MILLISECONDS);
        }
        long maxAge = config.getLong(CommonClientConfigs.METADATA_MAX_AGE_MS_CONFIG);
        scheduler.scheduleWithFixedDelay(() -> quietly("metadata check", this::checkPartitions), maxAge, maxAge,
            TimeUnit.MILLISECONDS);
    }

    /** New partitions or topics where no broker registry told us: rebalance. */
    private void checkPartitions() {
        Map<String, Integer> now = new SubscribedPartitions(metadata,
            config.getInt(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG)).partitionCounts(registration);
        if (!now.equals(rebalancer.partitionCounts())) {
            log.info("Consumer {}: partitions changed to {}; rebalancing", consumerId, now);
            requestRebalance();
        }
    }

    /** Runs a rebalance soon on the rebalance thread; requests made while one waits are folded into it. */
    private void requestRebalance() {
        if (closed.get() || !rebalancePending.compareAndSet(false, true)) {
            return;
        }
        onRebalanceThread(() -> {
            rebalancePending.set(false);
            if (closed.get()) {
                return;
            }
            try {
                ensureRegistered();   // a new session may rebalance before its RECONNECTED event registers it
                if (!rebalancer.rebalance()) {
                    retryRebalanceLater();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                if (!closed.get()) {
                    log.warn("Consumer {}: rebalance failed ({}); trying again", consumerId, e.toString());
                    retryRebalanceLater();
                }
            }
        });
    }

    /** Runs ZooKeeper work on the rebalance thread, so that it never interleaves with a rebalance. */
    private void onRebalanceThread(Runnable work) {
        try {
            rebalanceThread.execute(work);
        } catch (RejectedExecutionException closing) {
            // closed meanwhile: nothing left to do
        }
    }

    /**
     * Stops delivery on this thread at once (a rebalance blocked on the unreachable ZooKeeper may hold the
     * rebalance thread and its lock for a long time), then drops the partitions on the rebalance thread.
     */
    private void stopDeliveryNow() {
        Rebalancer current = rebalancer;
        if (current != null) {
            current.stopDelivery();
            onRebalanceThread(current::dropAll);
        }
    }

    private void retryRebalanceLater() {
        try {
            scheduler.schedule(this::requestRebalance, config.getInt(ConsumerConfig.REBALANCE_BACKOFF_MS_CONFIG),
                TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // closed meanwhile: nothing to retry
        }
    }

    private void onConnectionStateChange(ConnectionState state) {
        if (closed.get()) {
            return;
        }
        switch (state) {
            case SUSPENDED -> {
                long boundMs = config.getInt(ConsumerConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG) / 3;
                log.warn("Consumer {}: ZooKeeper connection suspended; delivery stops in {} ms unless it comes back",
                    consumerId, boundMs);
                stopDeliveryIfStillSuspended(boundMs);
            }
            case LOST -> {
                log.warn("Consumer {}: ZooKeeper session lost; stopping delivery and dropping every partition", consumerId);
                stopDeliveryNow();
            }
            case RECONNECTED -> {
                log.info("Consumer {}: reconnected to ZooKeeper; registering again if needed and rebalancing", consumerId);
                onRebalanceThread(() -> quietly("re-registration", this::ensureRegistered));
                requestRebalance();
            }
            default -> { }
        }
    }

    /**
     * The server may expire a session up to a whole session timeout after it last heard from the
     * client, and the client notices the lost connection only after two thirds of it: so a third later,
     * still disconnected, the consumer stops delivering and drops its partitions before anyone else can
     * own them. A reconnection within the session rebalances and claims them again.
     */
    private void stopDeliveryIfStillSuspended(long boundMs) {
        try {
            scheduler.schedule(() -> {
                if (!closed.get() && !curator.getZookeeperClient().isConnected()) {
                    log.warn("Consumer {}: still disconnected from ZooKeeper after {} ms; stopping delivery", consumerId,
                        boundMs);
                    stopDeliveryNow();
                }
            }, boundMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // closed meanwhile
        }
    }

    /** Registers this consumer again if its registration went with an expired session; rebalance thread only. */
    private void ensureRegistered() {
        if (!registry.isRegistered(consumerId)) {
            registry.register(registration);
        }
    }

    /**
     * Who is told before the offsets of partitions this consumer gives up are committed (a rebalance,
     * {@link #close()}): an application that finishes records asynchronously finishes them there.
     */
    public synchronized void setRebalanceListener(RebalanceListener listener) {
        this.rebalanceListener = java.util.Objects.requireNonNull(listener, "listener");
        if (rebalancer != null) {
            rebalancer.setListener(listener);
        }
    }

    /** Who is told when an out-of-range offset is reset, and so of every range of offsets never delivered. */
    public void setOffsetResetListener(OffsetResetListener listener) {
        fetchers.setResetListener(java.util.Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Writes the processed offset of every partition this consumer owns to the offset registry.
     *
     * @throws IllegalStateException when ZooKeeper is unreachable: nothing is committed (rather than
     *     waiting out every retry of every partition)
     */
    public void commit() {
        if (!curator.getZookeeperClient().isConnected()) {
            throw new IllegalStateException("Consumer " + consumerId + ": ZooKeeper is unreachable; nothing committed");
        }
        Rebalancer current = rebalancer;
        if (current != null) {
            current.commit();
        }
    }

    /**
     * Rewinds (or skips ahead in) a partition this consumer owns: its stream's next message from that
     * partition is the one at {@code offset}. An offset the partition no longer holds is handled as
     * {@code auto.offset.reset} says. To move a whole group, stop it and use {@link GroupOffsets}.
     *
     * @throws IllegalStateException when the partition is not this consumer's
     */
    public void seek(String topic, int partition, long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("Offsets are not negative: " + offset);
        }
        Rebalancer current = rebalancer;
        if (current == null) {
            throw new IllegalStateException("No subscription yet");
        }
        current.seek(new TopicPartition(topic, partition), offset);
    }

    /** The partitions this consumer owns right now. */
    public Set<TopicPartition> ownedPartitions() {
        Rebalancer current = rebalancer;
        return current == null ? Set.of() : current.owned();
    }

    /**
     * For every partition this consumer owns, how many records its log holds past the consumed offset,
     * as the leader's last fetch answer reported the log's end (Kafka's {@code records-lag}); -1 for a
     * partition not fetched yet. Does not wait for a rebalance or the network.
     */
    public Map<TopicPartition, Long> lag() {
        Rebalancer current = rebalancer;
        return current == null ? Map.of() : current.lag();
    }

    /** The id this consumer is registered under in its group. */
    public String consumerId() {
        return consumerId;
    }

    /** The ZooKeeper client, so that tests can end the session as a crash would. */
    CuratorFramework zooKeeperClient() {
        return curator;
    }

    /**
     * Leaves the group: commits the consumed offsets, releases the partitions, unregisters and ends
     * every stream (their iterators return false once drained of nothing).
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        watches.forEach(CuratorCache::close);
        scheduler.shutdownNow();
        rebalanceThread.shutdownNow();
        if (curator.getZookeeperClient().isConnected()) {
            if (rebalancer != null) {
                quietly("final commit", rebalancer::close);
            }
            quietly("unregistering", () -> registry.unregister(consumerId));
        } else if (rebalancer != null) {
            // Each ZooKeeper call would wait out its retries: close at once instead. The session expires on
            // the server and takes the registration and ownership with it; the next owner starts from the
            // last commit (records delivered again, none lost).
            log.warn("Consumer {}: ZooKeeper unreachable; closing without the final commit", consumerId);
            rebalancer.stopDelivery();   // without the lock, which a rebalance blocked on ZooKeeper may hold
        }
        quietly("stopping fetchers", () -> {
            try {
                fetchers.close();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        curator.close();
        streams.forEach(stream -> {
            stream.queue().clear();
            stream.queue().offer(FetchedChunk.SHUTDOWN);
        });
        metadata.close();
        client.close();
    }

    private void quietly(String what, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            log.warn("Consumer {}: {} failed: {}", consumerId, what, e.toString());
        }
    }
}
