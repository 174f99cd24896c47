package io.millrace.examples.pipeline;

import io.millrace.audit.AuditConfig;
import io.millrace.common.TopicPartition;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.PartitionReader;
import io.millrace.mirror.MirrorMaker;
import io.millrace.mirror.MirrorMakerConfig;
import io.millrace.mirror.SourceCluster;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's mirror maker: one process with an embedded group consumer per live data centre, copying the
 * event topics and the live audit topics into the offline cluster, with its own audit tiers on. The
 * offline report sees the front-ends' counts through these copies of the audit topics.
 */
final class MirrorStage implements AutoCloseable {

    private static final long WAIT_LIMIT_MS = 120_000;

    private final List<DataCentre> live;
    private final List<String> topics;
    private final MirrorMaker mirror;

    private MirrorStage(List<DataCentre> live, List<String> topics, MirrorMaker mirror) {
        this.live = live;
        this.topics = topics;
        this.mirror = mirror;
    }

    /** Starts mirroring {@code eventTopics} and the audit topic of every live data centre into {@code offline}. */
    static MirrorStage start(List<DataCentre> live, DataCentre offline, List<String> eventTopics) {
        List<String> topics = new ArrayList<>(eventTopics);
        topics.add(AuditConfig.DEFAULT_TOPIC);
        Map<String, Object> settings = new HashMap<>();
        settings.put(MirrorMakerConfig.WHITELIST_CONFIG, String.join("|", topics));
        settings.put(MirrorMakerConfig.OFFSET_COMMIT_INTERVAL_MS_CONFIG, 1_000L);
        settings.put(MirrorMakerConfig.AUDIT_ENABLED_CONFIG, true);
        List<SourceCluster> sources = new ArrayList<>();
        for (DataCentre dc : live) {
            Map<String, Object> consumer = new HashMap<>();
            consumer.put("bootstrap.servers", dc.bootstrapServers());
            consumer.put("zookeeper.connect", dc.zookeeperConnect());
            consumer.put(ConsumerConfig.GROUP_ID_CONFIG, group(dc, offline));
            consumer.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "smallest");
            consumer.put(SourceCluster.SCHEMA_REGISTRY_URL_CONFIG, dc.registryUrl());
            sources.add(new SourceCluster(dc.name(), consumer));
        }
        Map<String, Object> producer = Map.of("bootstrap.servers", offline.bootstrapServers(), "linger.ms", 5,
            SourceCluster.SCHEMA_REGISTRY_URL_CONFIG, offline.registryUrl());
        MirrorMaker mirror = new MirrorMaker(new MirrorMakerConfig(settings), sources, producer);
        mirror.start();
        return new MirrorStage(live, topics, mirror);
    }

    /** The mirror's consumer group in {@code live}. */
    static String group(DataCentre live, DataCentre offline) {
        return "mirror-" + live.name() + "-to-" + offline.name();
    }

    /** Records of the mirrored topics the offline cluster has acknowledged so far. */
    long copied() {
        return topics.stream().mapToLong(mirror.counters()::recordsOut).sum();
    }

    /**
     * Waits until every record now in the live clusters' mirrored topics is in the offline cluster; the live
     * clusters must be quiet (the front-ends done and their audit publishers closed).
     *
     * @return the records copied
     */
    long awaitCaughtUp() throws InterruptedException {
        long deadline = System.currentTimeMillis() + WAIT_LIMIT_MS;
        for (String topic : topics) {
            long inLive = 0;
            for (DataCentre dc : live) {
                inLive += recordsIn(dc, topic);
            }
            while (mirror.counters().recordsOut(topic) < inLive) {
                if (mirror.failure().isPresent()) {
                    throw mirror.failure().get();
                }
                if (System.currentTimeMillis() > deadline) {
                    throw new IllegalStateException("The mirror copied " + mirror.counters().recordsOut(topic) + " of "
                        + inLive + " records of " + topic + " in " + WAIT_LIMIT_MS / 1000 + " s");
                }
                Thread.sleep(50);
            }
        }
        return copied();
    }

    MirrorMaker mirror() {
        return mirror;
    }

    /** Records in every partition of {@code topic} in {@code dc}, from the first offset to the end. */
    private static long recordsIn(DataCentre dc, String topic) {
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                dc.bootstrapServers())))) {
            long records = 0;
            for (int p = 0; p < reader.partitionCount(topic); p++) {
                TopicPartition tp = new TopicPartition(topic, p);
                records += reader.latestOffset(tp) - reader.earliestOffset(tp);
            }
            return records;
        }
    }

    /** Stops the mirror: it commits what the offline cluster acknowledged and publishes its last audit counts. */
    @Override
    public void close() {
        mirror.close();
    }
}
