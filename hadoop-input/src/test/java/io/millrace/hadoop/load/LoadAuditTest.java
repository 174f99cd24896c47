package io.millrace.hadoop.load;

import static io.millrace.hadoop.AuditReadBack.countedPerWindow;
import static io.millrace.hadoop.AuditReadBack.entries;
import static io.millrace.hadoop.AuditReadBack.expectedPerWindow;
import static io.millrace.hadoop.AuditReadBack.hadoop;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.millrace.audit.AuditConfig;
import io.millrace.audit.AuditPublisher;
import io.millrace.audit.report.AuditEntry;
import io.millrace.audit.report.Reconciliation;
import io.millrace.hadoop.AuditReadBack;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.hadoop.state.StateDir;
import io.millrace.hadoop.state.WindowCount;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The hadoop tier of the audit: a load with auditing on publishes, after its commit, per window what it loaded,
 * equal to what the front-end's audited producer counted; undecodable messages are counted, not dropped; a load
 * whose audit topic cannot be reached still loads, and the next load publishes its counts.
 */
public class LoadAuditTest {

    private static LoaderCluster cluster;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LoaderCluster.start(Map.of());
    }

    @AfterClass
    public static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static Map<String, Object> auditedLoad(String name, String auditTopic, String topic) {
        Map<String, Object> settings = cluster.loadSettings(name, topic);
        settings.put(LoadConfig.AUDIT_ENABLED_CONFIG, true);
        settings.put(AuditConfig.AUDIT_TOPIC_CONFIG, auditTopic);
        settings.put(LoadConfig.MAX_SPLIT_RECORDS_CONFIG, 1_000);
        settings.put(LoadConfig.MAX_ERROR_PERCENT_CONFIG, 5);
        return settings;
    }

    @Test
    public void aLoadPublishesPerWindowWhatItLoadedEqualToWhatTheProducersCounted() throws Exception {
        String topic = "audited";
        String auditTopic = "_audit-load";
        cluster.createTopic(topic, 2);
        List<SentEvent> sent = new ArrayList<>();
        try (AuditPublisher producers = AuditReadBack.producerTier(cluster, auditTopic)) {
            sent.addAll(cluster.produceAudited(topic, 2, 1_500, 3, 0, producers.counter()));
        }
        cluster.sendUndecodable(topic, 2, 3);
        Map<String, Object> settings = auditedLoad("audited", auditTopic, topic);
        long loadStart = System.currentTimeMillis();
        LoadSummary first = new LoadJob(new LoadConfig(settings), cluster.localJobConf()).run();
        assertEquals(3_000, first.records());
        assertEquals(6, first.errors());

        List<AuditEntry> all = entries(cluster, auditTopic);
        List<AuditEntry> loaded = hadoop(all);
        Map<Long, Long> expected = expectedPerWindow(sent);
        assertEquals("three 10-minute windows in each of three hours", 9, expected.size());
        assertEquals(expected, countedPerWindow(loaded));
        StateDir state = StateDir.open((String) settings.get(LoadConfig.STATE_DIR_CONFIG), new Configuration());
        for (AuditEntry entry : loaded) {
            assertEquals("offline", entry.cluster());
            assertEquals(topic, entry.topic());
            assertEquals("ids from the manifest", state.root() + "/0000000001/" + topic + "/" + entry.window().start(),
                entry.id());
        }
        assertEquals("undecodable messages are counted", 6, loaded.stream().mapToLong(e -> e.window().malformedCount()).sum());
        assertEquals(0, loaded.stream().mapToLong(e -> e.window().noTimeCount()).sum());
        assertEquals("the producers' bytes, window by window", bytesPerWindow(producerTier(all)), bytesPerWindow(loaded));
        assertEveryWindowComplete(all, expected.size());

        assertTrue(state.audited(1));
        List<WindowCount> kept = state.read(1).auditWindows();
        assertEquals(3_000, kept.stream().mapToLong(WindowCount::count).sum());
        assertTrue("latency from the event time to the load", kept.stream().filter(w -> w.count() > 0)
            .allMatch(w -> w.latencyMaxMs() >= loadStart - w.windowEnd() && w.latencyP50Ms() <= w.latencyMaxMs()));

        assertNull("nothing new", new LoadJob(new LoadConfig(settings), cluster.localJobConf()).run());
        assertEquals("nothing published again", all.size(), entries(cluster, auditTopic).size());

        try (AuditPublisher producers = AuditReadBack.producerTier(cluster, auditTopic)) {
            sent.addAll(cluster.produceAudited(topic, 2, 200, 3, 1_500, producers.counter()));
        }
        new LoadJob(new LoadConfig(settings), cluster.localJobConf()).run();
        List<AuditEntry> afterSecond = entries(cluster, auditTopic);
        assertEquals("the second load's deltas add to the first's", expectedPerWindow(sent),
            countedPerWindow(hadoop(afterSecond)));
        assertEveryWindowComplete(afterSecond, expectedPerWindow(sent).size());
    }

    @Test
    public void aLoadWhoseAuditTopicCannotBeReachedStillLoadsAndTheNextLoadPublishesItsCounts() throws Exception {
        String topic = "audited-later";
        String auditTopic = "_audit-later";
        cluster.createTopic(topic, 1);
        List<SentEvent> sent = new ArrayList<>(cluster.produce(topic, 1, 300, 2, 0));
        Map<String, Object> unreachable = auditedLoad("later", "not a valid topic name!", topic);
        unreachable.put(AuditConfig.AUDIT_CLOSE_TIMEOUT_MS_CONFIG, 2_000);
        LoadSummary first = new LoadJob(new LoadConfig(unreachable), cluster.localJobConf()).run();
        assertEquals("the load itself is complete", 300, first.records());
        StateDir state = StateDir.open((String) unreachable.get(LoadConfig.STATE_DIR_CONFIG), new Configuration());
        assertFalse("not acknowledged, not marked", state.audited(1));

        sent.addAll(cluster.produce(topic, 1, 100, 2, 300));
        Map<String, Object> settings = auditedLoad("later", auditTopic, topic);
        new LoadJob(new LoadConfig(settings), cluster.localJobConf()).run();
        assertTrue(state.audited(1));
        assertTrue(state.audited(2));
        List<AuditEntry> loaded = hadoop(entries(cluster, auditTopic));
        assertEquals(expectedPerWindow(sent), countedPerWindow(loaded));
        assertTrue("both loads' records", loaded.stream().anyMatch(e -> e.id().contains("/0000000001/"))
            && loaded.stream().anyMatch(e -> e.id().contains("/0000000002/")));
    }

    /** Every window of the hadoop tier is complete against the producers, counted once. */
    private static void assertEveryWindowComplete(List<AuditEntry> entries, int windows) {
        assertEquals(0, AuditReadBack.assertHadoopComplete(entries, windows, "after the load").duplicateRecords());
    }

    private static List<AuditEntry> producerTier(List<AuditEntry> entries) {
        return entries.stream().filter(e -> e.tier().equals(Reconciliation.PRODUCER_TIER)).toList();
    }

    private static Map<Long, Long> bytesPerWindow(List<AuditEntry> entries) {
        Map<Long, Long> bytes = new TreeMap<>();
        entries.stream().filter(e -> e.window().count() > 0)
            .forEach(e -> bytes.merge(e.window().start(), e.window().bytes(), Long::sum));
        return bytes;
    }
}
