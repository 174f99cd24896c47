package io.millrace.hadoop.load;

import static io.millrace.hadoop.AuditReadBack.entries;
import static io.millrace.hadoop.AuditReadBack.lostRanges;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.audit.AuditConfig;
import io.millrace.audit.report.AuditEntry;
import io.millrace.audit.report.Reconciliation;
import io.millrace.audit.report.Reconciliation.LostRow;
import io.millrace.broker.log.LogManager;
import io.millrace.common.TopicPartition;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.PartitionReader;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoadedData;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.hadoop.input.LoaderCounter;
import io.millrace.hadoop.input.LostRange;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.hadoop.state.StateDir;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * Retention deletes segments the last load did not read: the lost range is counted and reported, the load goes on;
 * with auditing on, each lost range reaches the audit topic once, under the hadoop tier.
 */
public class RetentionGapTest {

    private static final String TOPIC = "short-lived";
    private static final Map<String, String> SMALL_SEGMENTS = Map.of("segment.bytes", "20000");

    private static LoaderCluster cluster;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LoaderCluster.start(Map.of());
        cluster.createTopic(TOPIC, 2, SMALL_SEGMENTS);
    }

    @AfterClass
    public static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    public void offsetsDeletedBeforeTheyWereLoadedAreALostRangeNotASilentReset() throws Exception {
        Map<String, Object> settings = cluster.loadSettings("gap", TOPIC);
        List<SentEvent> sent = new ArrayList<>(cluster.produce(TOPIC, 2, 300, 2, 0));
        assertEquals(600, LoadJobTest.load(cluster, settings).records());

        List<SentEvent> unread = cluster.produce(TOPIC, 2, 500, 2, 300);
        LogManager logs = cluster.brokers().broker(0).logManager();
        logs.setTopicConfig(TOPIC, Map.of("segment.bytes", "20000", "retention.bytes", "1"));
        assertTrue("retention deleted segments", logs.cleanupLogs() > 0);
        long[] earliest = earliestOffsets(TOPIC);
        assertTrue("the gap reaches past what was loaded: " + earliest[0] + ", " + earliest[1], earliest[0] > 300 && earliest[1] > 300);

        LoadJob load = new LoadJob(new LoadConfig(settings), cluster.localJobConf());
        LoadSummary summary = load.run();
        long missing = (earliest[0] - 300) + (earliest[1] - 300);
        assertEquals(missing, load.counters().findCounter(LoaderCounter.LOST_OFFSETS).getValue());
        assertEquals(missing, summary.lostMessages());
        assertEquals(List.of(new LostRange(TOPIC, 0, 300, earliest[0]), new LostRange(TOPIC, 1, 300, earliest[1])), summary.lost());
        assertEquals(1000 - missing, summary.records());

        for (SentEvent event : unread) {
            String[] parts = event.payload().split("/");
            if (Long.parseLong(parts[2]) >= earliest[Integer.parseInt(parts[1])]) {
                sent.add(event);
            }
        }
        LoadedData.read((String) settings.get(LoadConfig.DATA_ROOT_CONFIG)).assertExactlyOnce(sent, false);
    }

    /**
     * An audited load after a gap in each of two partitions: the audit topic holds one lost range per gap, under
     * the hadoop tier and the loader's cluster, with the exact offsets and count and an id from the manifest, and
     * the report lists each.
     */
    @Test
    public void anAuditedLoadPublishesOneLostRangePerGapWithItsExactCount() throws Exception {
        String topic = "audited-gap";
        String auditTopic = "_audit-gap";
        cluster.createTopic(topic, 2, SMALL_SEGMENTS);
        Map<String, Object> settings = audited("audited-gap", topic, auditTopic);
        cluster.produce(topic, 2, 300, 2, 0);
        assertEquals(600, LoadJobTest.load(cluster, settings).records());
        assertEquals("no gap, no lost range", List.of(), lostRanges(entries(cluster, auditTopic)));

        cluster.produce(topic, 2, 500, 2, 300);
        LogManager logs = cluster.brokers().broker(0).logManager();
        logs.setTopicConfig(topic, Map.of("segment.bytes", "20000", "retention.bytes", "1"));
        assertTrue("retention deleted segments", logs.cleanupLogs() > 0);
        long[] earliest = earliestOffsets(topic);
        assertTrue("a gap in both partitions: " + earliest[0] + ", " + earliest[1], earliest[0] > 300 && earliest[1] > 300);
        LoadSummary summary = LoadJobTest.load(cluster, settings);
        assertEquals(2, summary.lost().size());

        List<AuditEntry> all = entries(cluster, auditTopic);
        List<AuditEntry> lost = lostRanges(all).stream().sorted(Comparator.comparingInt(e -> e.lost().partition())).toList();
        assertEquals("one lost range per gap: " + lost, 2, lost.size());
        StateDir state = state(settings);
        for (int p = 0; p < 2; p++) {
            AuditEntry entry = lost.get(p);
            assertEquals(LoadConfig.AUDIT_TIER, entry.tier());
            assertEquals("offline", entry.cluster());
            assertEquals(topic, entry.topic());
            assertEquals("an id from the manifest", state.root() + "/0000000002/" + topic + "/lost/" + p + "/300", entry.id());
            assertEquals(new AuditEntry.Lost(p, 300, earliest[p] - 1, earliest[p] - 300), entry.lost());
        }
        List<LostRow> expected = List.of(
            new LostRow(LoadConfig.AUDIT_TIER, "offline", topic, 0, 300, earliest[0] - 1, earliest[0] - 300),
            new LostRow(LoadConfig.AUDIT_TIER, "offline", topic, 1, 300, earliest[1] - 1, earliest[1] - 300));
        assertEquals(expected, Reconciliation.reconcile(all, System.currentTimeMillis(), 0).lost().stream()
            .sorted(Comparator.comparingInt(LostRow::partition)).toList());
        assertTrue("marked as published", state.audited(2));
    }

    /** Retention runs while the load's task reads: the deleted offsets become a lost range of the task, and the load commits. */
    @Test
    public void offsetsDeletedWhileATaskReadsThemAreALostRangeAndTheLoadGoesOn() throws Exception {
        String topic = "vanishing";
        cluster.createTopic(topic, 1, SMALL_SEGMENTS);
        Map<String, Object> settings = audited("vanishing", topic, "_audit-vanishing");
        List<SentEvent> sent = cluster.produce(topic, 1, 600, 2, 0);
        LogManager logs = cluster.brokers().broker(0).logManager();
        RetentionAtTaskStart.retention = () -> {
            logs.setTopicConfig(topic, Map.of("segment.bytes", "20000", "retention.bytes", "1"));
            assertTrue("retention deleted segments", logs.cleanupLogs() > 0);
        };
        LoadJob load = new LoadJob(new LoadConfig(settings), cluster.localJobConf(), CommitHook.NONE,
            RetentionAtTaskStart.class);
        LoadSummary summary = load.run();
        long earliest = earliestOffset(topic);
        assertTrue("retention deleted part of the planned range: " + earliest, earliest > 0 && earliest < 600);
        assertEquals(List.of(new LostRange(topic, 0, 0, earliest)), summary.lost());
        assertEquals(earliest, summary.lostMessages());
        assertEquals(earliest, load.counters().findCounter(LoaderCounter.LOST_OFFSETS).getValue());
        assertEquals(600 - earliest, summary.records());
        assertEquals("the task's lost range in the audit topic", List.of(new AuditEntry.Lost(0, 0, earliest - 1, earliest)),
            lostRanges(entries(cluster, "_audit-vanishing")).stream().map(AuditEntry::lost).toList());
        List<SentEvent> kept = new ArrayList<>();
        for (SentEvent event : sent) {
            if (Long.parseLong(event.payload().split("/")[2]) >= earliest) {
                kept.add(event);
            }
        }
        LoadedData.read((String) settings.get(LoadConfig.DATA_ROOT_CONFIG)).assertExactlyOnce(kept, false);
        assertEquals("the next load starts after the range", null, LoadJobTest.load(cluster, settings));
    }

    /** A mapper whose task start runs retention on the broker (the LocalJobRunner runs it in this JVM). */
    public static class RetentionAtTaskStart extends LoadMapper {
        static volatile Runnable retention = () -> { };

        @Override
        protected void setup(Context context) throws java.io.IOException, InterruptedException {
            retention.run();
            super.setup(context);
        }
    }

    private static long earliestOffset(String topic) {
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                cluster.brokers().bootstrapServers())))) {
            return reader.earliestOffset(new TopicPartition(topic, 0));
        }
    }

    private static long[] earliestOffsets(String topic) {
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                cluster.brokers().bootstrapServers())))) {
            return new long[] {reader.earliestOffset(new TopicPartition(topic, 0)), reader.earliestOffset(new TopicPartition(topic, 1))};
        }
    }

    /** The settings of a load from {@code topic} with auditing on, to {@code auditTopic}. */
    private static Map<String, Object> audited(String name, String topic, String auditTopic) {
        Map<String, Object> settings = cluster.loadSettings(name, topic);
        settings.put(LoadConfig.AUDIT_ENABLED_CONFIG, true);
        settings.put(AuditConfig.AUDIT_TOPIC_CONFIG, auditTopic);
        return settings;
    }

    private static StateDir state(Map<String, Object> settings) throws java.io.IOException {
        return StateDir.open((String) settings.get(LoadConfig.STATE_DIR_CONFIG), new Configuration());
    }
}
