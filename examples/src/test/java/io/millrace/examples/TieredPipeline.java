package io.millrace.examples;

import io.millrace.audit.AuditConfig;
import io.millrace.audit.AuditPublisher;
import io.millrace.audit.AuditingProducer;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.StringSerializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.GroupOffsets;
import io.millrace.consumer.PartitionReader;
import io.millrace.events.EventHeader;
import io.millrace.examples.events.PageViewEvent;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.load.LoadJob;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.mirror.MirrorMaker;
import io.millrace.mirror.MirrorMakerConfig;
import io.millrace.mirror.MirrorMessageHandler;
import io.millrace.mirror.SourceCluster;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import io.millrace.producer.avro.AvroEventProducer;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroSerializer;
import io.millrace.schemaregistry.serde.EventHeaders;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import io.millrace.testkit.Conditions;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;

/**
 * The pipeline of the paper in one JVM, every tier audited: a live data centre ({@code dc1}, a broker with
 * its ZooKeeper), the offline cluster (another), a schema registry in each, front-ends sending Avro page views
 * through {@link AvroEventProducer} and {@link AuditingProducer}, the mirror maker, and the Hadoop loader on
 * the LocalJobRunner and the local file system. The front-ends publish their counts to dc1's audit topic,
 * which the mirror copies with the events; the mirror and the loader publish theirs to the offline
 * cluster's, where the report reads them all. Windows are {@link #WINDOW_MS} long, due at once after
 * their end.
 *
 * <p>The offline registry runs in IMPORT mode: the mirror copies into it, ids kept, the schemas the
 * records it copies name (the events' and, with dc1's audit topic, the audit record's), and the offline
 * audit publishers' registrations of the audit record's schema are answered with the id it was imported
 * with.
 *
 * <p>Event times lie in whole windows before the test started ({@link #window(int)}), so that every window is
 * over, and may be judged, by the time the report runs.
 */
final class TieredPipeline implements AutoCloseable {

    static final long WINDOW_MS = 60_000;
    static final String LIVE_CLUSTER = "dc1";
    static final String MIRROR_GROUP = "mirror-offline";
    /** Makes each event about 250 bytes, so that a few hundred fill several 20,000-byte segments. */
    private static final String URL_PADDING = "/jobs/view?trk=" + "x".repeat(200);

    private final LocalCluster live;
    private final LocalCluster offline;
    private final SchemaRegistryServer liveRegistry;
    private final SchemaRegistryServer offlineRegistry;
    private final Path dir;
    /** The start of the first window events are timed in: five whole windows before now. */
    private final long firstWindow;

    /** An event as sent: its topic, key, partition and event time. */
    record Sent(String topic, String key, int partition, long timeMs) {
    }

    private TieredPipeline(LocalCluster live, SchemaRegistryServer liveRegistry, LocalCluster offline,
                           SchemaRegistryServer offlineRegistry, Path dir) {
        this.live = live;
        this.liveRegistry = liveRegistry;
        this.offline = offline;
        this.offlineRegistry = offlineRegistry;
        this.dir = dir;
        long now = System.currentTimeMillis();
        this.firstWindow = now - now % WINDOW_MS - 5 * WINDOW_MS;
    }

    static TieredPipeline start(Path dir) throws Exception {
        List<AutoCloseable> started = new ArrayList<>();
        try {
            // broker ids of their own: brokers in one JVM share JMX names, which carry the id
            LocalCluster live = started(started, LocalCluster.start(1, Map.of("broker.id", 31)));
            SchemaRegistryServer liveRegistry = started(started, SchemaRegistryServer.startLocal(live.zookeeperConnect()));
            LocalCluster offline = started(started, LocalCluster.start(1, Map.of("broker.id", 32)));
            SchemaRegistryServer offlineRegistry = started(started,
                SchemaRegistryServer.startLocal(offline.zookeeperConnect()));
            new SchemaRegistryClient(Map.of("schema.registry.url", offlineRegistry.urls().get(0))).setMode("IMPORT");
            return new TieredPipeline(live, liveRegistry, offline, offlineRegistry, dir);
        } catch (Exception | Error e) {
            for (int i = started.size() - 1; i >= 0; i--) {
                try {
                    started.get(i).close();
                } catch (Exception closing) {
                    e.addSuppressed(closing);
                }
            }
            throw e;
        }
    }

    private static <T extends AutoCloseable> T started(List<AutoCloseable> started, T resource) {
        started.add(resource);
        return resource;
    }

    LocalCluster live() {
        return live;
    }

    LocalCluster offline() {
        return offline;
    }

    /** dc1's registry: the front-ends register their schemas there. */
    String liveRegistryUrl() {
        return liveRegistry.urls().get(0);
    }

    /** The offline registry, in IMPORT mode: the mirror's copies, read by the loader and the report. */
    String offlineRegistryUrl() {
        return offlineRegistry.urls().get(0);
    }

    /** The start of window {@code index}, counted from the first one events are timed in. */
    long window(int index) {
        return firstWindow + index * WINDOW_MS;
    }

    /** The index of the window {@code timeMs} falls in. */
    int windowOf(long timeMs) {
        return (int) Math.floorDiv(timeMs - firstWindow, WINDOW_MS);
    }

    /** The audit settings every tier shares: short windows, published as soon as they end. */
    private static Map<String, Object> auditTiming() {
        return Map.of(AuditConfig.AUDIT_WINDOW_MS_CONFIG, WINDOW_MS, AuditConfig.AUDIT_LATENESS_MS_CONFIG, 0L,
            AuditConfig.AUDIT_PUBLISH_INTERVAL_MS_CONFIG, 200L);
    }

    /** The front-ends' audit publisher: tier producer, cluster dc1, to dc1's audit topic. */
    AuditPublisher frontEnds() {
        Map<String, Object> settings = new HashMap<>(auditTiming());
        settings.put("bootstrap.servers", live.bootstrapServers());
        settings.put("schema.registry.url", liveRegistryUrl());
        settings.put(AuditConfig.AUDIT_TIER_CONFIG, "producer");
        settings.put(AuditConfig.AUDIT_CLUSTER_CONFIG, LIVE_CLUSTER);
        settings.put(AuditConfig.AUDIT_APPLICATION_CONFIG, "frontend");
        return new AuditPublisher(settings).start();
    }

    /**
     * Sends page views {@code first} to {@code first + count - 1} to dc1's {@code topic}, round robin over its
     * partitions, event n timed in window {@code firstWindowIndex + n % windows}; each acknowledged one is counted
     * by {@code frontEnds}.
     */
    List<Sent> produce(AuditPublisher frontEnds, String topic, int partitions, int first, int count, int firstWindowIndex,
                       int windows) throws Exception {
        Map<String, Object> props = Map.of("bootstrap.servers", live.bootstrapServers(), "linger.ms", 5,
            "schema.registry.url", liveRegistryUrl(), "auto.register.schemas", true);
        List<Sent> sent = new ArrayList<>();
        try (AvroEventProducer<String, PageViewEvent> producer = new AvroEventProducer<>(new AuditingProducer<>(
                new MillraceProducer<>(props, new StringSerializer(), new AvroSerializer<>()), frontEnds.counter()),
                EventHeaders.forThisHost())) {
            List<Future<?>> acks = new ArrayList<>();
            for (int n = first; n < first + count; n++) {
                long time = window(firstWindowIndex + n % windows) + n * 10L;
                Sent event = new Sent(topic, topic + "/" + n, n % partitions, time);
                acks.add(producer.send(new ProducerRecord<>(topic, event.partition(), event.key(), pageView(event))));
                sent.add(event);
            }
            for (Future<?> ack : acks) {
                ack.get();
            }
        }
        return sent;
    }

    private static PageViewEvent pageView(Sent event) {
        return PageViewEvent.newBuilder()
            .setHeader(EventHeader.newBuilder().setService("frontend").setTime(event.timeMs()).build())
            .setPageKey("job-posting").setUrl(URL_PADDING + "&event=" + event.key()).build();
    }

    /**
     * A mirror maker from dc1 into the offline cluster with the audit on and {@code handler} between them,
     * given {@code handlerArgs}; committing every 200 ms.
     */
    MirrorMaker mirror(String whitelist, Class<? extends MirrorMessageHandler> handler, String handlerArgs) {
        Map<String, Object> settings = new HashMap<>(auditTiming());
        settings.put(MirrorMakerConfig.WHITELIST_CONFIG, whitelist);
        settings.put(MirrorMakerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, 200L);
        settings.put(MirrorMakerConfig.AUDIT_ENABLED_CONFIG, true);
        settings.put(MirrorMakerConfig.MESSAGE_HANDLER_CONFIG, handler.getName());
        settings.put(MirrorMakerConfig.MESSAGE_HANDLER_ARGS_CONFIG, handlerArgs);
        Map<String, Object> source = new HashMap<>();
        source.put("bootstrap.servers", live.bootstrapServers());
        source.put("zookeeper.connect", live.zookeeperConnect());
        source.put(ConsumerConfig.GROUP_ID_CONFIG, MIRROR_GROUP);
        source.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
        source.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        source.put(SourceCluster.SCHEMA_REGISTRY_URL_CONFIG, liveRegistryUrl());
        Map<String, Object> producer = Map.of("bootstrap.servers", offline.bootstrapServers(), "linger.ms", 5,
            SourceCluster.SCHEMA_REGISTRY_URL_CONFIG, offlineRegistryUrl());
        return new MirrorMaker(new MirrorMakerConfig(settings), List.of(new SourceCluster(LIVE_CLUSTER, source)), producer);
    }

    /** Runs a mirror until its group has committed everything dc1 holds of {@code topics}, then closes it. */
    void mirrorEverything(MirrorMaker mirror, Set<String> topics) {
        try (mirror) {
            mirror.start();
            Conditions.waitUntil(() -> mirror.failure().isEmpty() && caughtUp(topics), 60_000,
                "the mirror's group to commit every record dc1 holds");
        }
    }

    private boolean caughtUp(Set<String> topics) {
        Map<String, Object> settings = Map.of("zookeeper.connect", live.zookeeperConnect(),
            "bootstrap.servers", live.bootstrapServers(), ConsumerConfig.GROUP_ID_CONFIG, MIRROR_GROUP);
        try (GroupOffsets offsets = new GroupOffsets(new ConsumerConfig(settings))) {
            List<GroupOffsets.PartitionLag> rows = offsets.describe(MIRROR_GROUP);
            // a partition that never held a record has no commit (-1)
            return rows.stream().map(GroupOffsets.PartitionLag::topic).collect(Collectors.toSet()).containsAll(topics)
                && rows.stream().allMatch(r -> Math.max(r.committedOffset(), 0) == r.logEndOffset());
        }
    }

    /** Loads {@code topics} from the offline cluster with the audit on, state and data under the test's directory. */
    LoadSummary load(String... topics) throws Exception {
        Map<String, Object> settings = new HashMap<>(auditTiming());
        settings.put("bootstrap.servers", offline.bootstrapServers());
        settings.put(LoadConfig.SCHEMA_REGISTRY_URL_CONFIG, offlineRegistryUrl());
        settings.put(LoadConfig.DATA_ROOT_CONFIG, dir.resolve("data").toUri().toString());
        settings.put(LoadConfig.STATE_DIR_CONFIG, dir.resolve("state").toUri().toString());
        settings.put(LoadConfig.TOPICS_CONFIG, String.join(",", topics));
        settings.put(LoadConfig.AUDIT_ENABLED_CONFIG, true);
        return new LoadJob(new LoadConfig(settings), localJobConf()).run();
    }

    /** Hadoop's LocalJobRunner on the local file system, its scratch space under the test's directory. */
    private Configuration localJobConf() {
        Configuration conf = new Configuration();
        conf.set("mapreduce.framework.name", "local");
        conf.set("fs.defaultFS", "file:///");
        conf.set("hadoop.tmp.dir", dir.resolve("hadoop-tmp").toString());
        conf.setInt("mapreduce.local.map.tasks.maximum", 2);
        return conf;
    }

    /** Offset to timestamp of every record partition 0 of {@code topic} holds in {@code cluster}. */
    static Map<Long, Long> timestamps(LocalCluster cluster, String topic) {
        Map<Long, Long> times = new TreeMap<>();
        TopicPartition tp = new TopicPartition(topic, 0);
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                cluster.bootstrapServers())))) {
            reader.read(tp, reader.earliestOffset(tp), reader.latestOffset(tp))
                .forEachRemaining(r -> times.put(r.offset(), r.timestamp()));
        }
        return times;
    }

    /**
     * Retention in {@code cluster}: with segments of 20,000 bytes and retention.bytes 1, every segment of
     * {@code topic} but the active one is deleted. Returns the earliest offset left in partition 0.
     */
    static long deleteAllButActiveSegment(LocalCluster cluster, String topic) {
        io.millrace.broker.log.LogManager logs = cluster.broker(0).logManager();
        logs.setTopicConfig(topic, Map.of("segment.bytes", "20000", "retention.bytes", "1"));
        if (logs.cleanupLogs() == 0) {
            throw new AssertionError("retention deleted nothing of " + topic);
        }
        TopicPartition tp = new TopicPartition(topic, 0);
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                cluster.bootstrapServers())))) {
            return reader.earliestOffset(tp);
        }
    }

    @Override
    public void close() throws Exception {
        try (live; liveRegistry; offline; offlineRegistry) {
            // closed in reverse order: each registry before the ZooKeeper that keeps its schemas
        }
    }
}
