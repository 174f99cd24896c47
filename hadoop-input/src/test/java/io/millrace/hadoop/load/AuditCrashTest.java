package io.millrace.hadoop.load;

import static io.millrace.hadoop.AuditReadBack.concat;
import static io.millrace.hadoop.AuditReadBack.countedPerWindow;
import static io.millrace.hadoop.AuditReadBack.entries;
import static io.millrace.hadoop.AuditReadBack.expectedPerWindow;
import static io.millrace.hadoop.AuditReadBack.hadoop;
import static io.millrace.hadoop.AuditReadBack.lostRanges;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.audit.AuditConfig;
import io.millrace.audit.AuditPublisher;
import io.millrace.audit.report.AuditEntry;
import io.millrace.audit.report.AuditReport;
import io.millrace.audit.report.Reconciliation;
import io.millrace.audit.report.Reconciliation.LostRow;
import io.millrace.broker.log.LogManager;
import io.millrace.common.TopicPartition;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.PartitionReader;
import io.millrace.hadoop.AuditReadBack;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoadedData;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.hadoop.load.CommitCrashTest.SimulatedCrash;
import io.millrace.hadoop.state.StateDir;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The hadoop tier of the audit across a crash: a load killed at each commit step and completed by the next
 * load publishes its counts, and its lost ranges, exactly once, and nothing before the audit topic acknowledged
 * them (so nothing before the commit point). Each step loads into a state directory and an audit topic of its
 * own, and the report is made from that audit topic and the front-end's counts of the events.
 */
public class AuditCrashTest {

    private static final String TOPIC = "audit-crashing";

    private static LoaderCluster cluster;
    private static final List<SentEvent> SENT = new ArrayList<>();
    private static List<AuditEntry> producerCounts;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LoaderCluster.start(Map.of());
        cluster.createTopic(TOPIC, 3);
        String producersTopic = "_audit-crash-producers";
        try (AuditPublisher producers = AuditReadBack.producerTier(cluster, producersTopic)) {
            SENT.addAll(cluster.produceAudited(TOPIC, 3, 1_000, 2, 0, producers.counter()));
        }
        producerCounts = entries(cluster, producersTopic);
    }

    @AfterClass
    public static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    public void aLoadKilledAtAnyCommitStepAndRecoveredPublishesItsCountsExactlyOnce() throws Exception {
        Map<Long, Long> expected = expectedPerWindow(SENT);
        assertEquals("two 10-minute windows in each of two hours", 4, expected.size());
        for (CommitStep step : CommitStep.values()) {
            String auditTopic = "_audit-crash-" + step.name().toLowerCase(Locale.ROOT);
            cluster.createTopic(auditTopic, 1);
            Map<String, Object> settings = cluster.loadSettings("audit-crash-" + step, TOPIC);
            settings.put(LoadConfig.MAX_SPLIT_RECORDS_CONFIG, 700);
            settings.put(LoadConfig.AUDIT_ENABLED_CONFIG, true);
            settings.put(AuditConfig.AUDIT_TOPIC_CONFIG, auditTopic);
            CommitHook crash = reached -> {
                if (reached == step) {
                    throw new SimulatedCrash(step);
                }
            };
            assertThrows(SimulatedCrash.class, new LoadJob(new LoadConfig(settings), cluster.localJobConf(), crash,
                LoadMapper.class)::run);
            List<AuditEntry> afterCrash = hadoop(entries(cluster, auditTopic));
            if (step.compareTo(CommitStep.AUDIT_PUBLISHED) < 0) {
                assertEquals(step + ": nothing is published before the audit topic acknowledged it", List.of(), afterCrash);
            } else {
                assertEquals(step + ": published, not yet marked", expected, countedPerWindow(afterCrash));
            }

            new LoadJob(new LoadConfig(settings), cluster.localJobConf()).run();
            assertCountedOnce(settings, auditTopic, step);
        }
    }

    /**
     * A load after a retention gap, killed at each commit step and recovered: its lost range is published once,
     * under one id, and the report lists it once (after AUDIT_PUBLISHED the record sent again is a duplicate).
     * Each step has a topic of its own, whose gap opens after a first load committed its offsets.
     */
    @Test
    public void aLostRangeOfALoadKilledAtAnyCommitStepAndRecoveredIsPublishedOnce() throws Exception {
        LogManager logs = cluster.brokers().broker(0).logManager();
        for (CommitStep step : CommitStep.values()) {
            String name = "gap-crash-" + step.name().toLowerCase(Locale.ROOT);
            String auditTopic = "_audit-" + name;
            cluster.createTopic(name, 1, Map.of("segment.bytes", "20000"));
            cluster.createTopic(auditTopic, 1);
            Map<String, Object> settings = cluster.loadSettings(name, name);
            settings.put(LoadConfig.AUDIT_ENABLED_CONFIG, true);
            settings.put(AuditConfig.AUDIT_TOPIC_CONFIG, auditTopic);
            cluster.produce(name, 1, 300, 2, 0);
            new LoadJob(new LoadConfig(settings), cluster.localJobConf()).run();
            cluster.produce(name, 1, 500, 2, 300);
            logs.setTopicConfig(name, Map.of("segment.bytes", "20000", "retention.bytes", "1"));
            assertTrue(step + ": retention deleted segments", logs.cleanupLogs() > 0);
            long earliest = earliestOffset(name);
            assertTrue(step + ": a gap past what was loaded: " + earliest, earliest > 300);

            CommitHook crash = reached -> {
                if (reached == step) {
                    throw new SimulatedCrash(step);
                }
            };
            assertThrows(SimulatedCrash.class, new LoadJob(new LoadConfig(settings), cluster.localJobConf(), crash,
                LoadMapper.class)::run);
            int published = step == CommitStep.AUDIT_PUBLISHED ? 1 : 0;
            assertEquals(step + ": nothing before the acknowledgement", published,
                lostRanges(entries(cluster, auditTopic)).size());

            new LoadJob(new LoadConfig(settings), cluster.localJobConf()).run();
            List<AuditEntry> all = entries(cluster, auditTopic);
            StateDir state = StateDir.open((String) settings.get(LoadConfig.STATE_DIR_CONFIG), new Configuration());
            String id = state.root() + "/0000000002/" + name + "/lost/0/300";
            assertEquals(step + ": one id, sent again only after AUDIT_PUBLISHED", Collections.nCopies(1 + published,
                id), lostRanges(all).stream().map(AuditEntry::id).toList());
            assertEquals(step + ": the report lists it once",
                List.of(new LostRow(LoadConfig.AUDIT_TIER, "offline", name, 0, 300, earliest - 1, earliest - 300)),
                Reconciliation.reconcile(all, System.currentTimeMillis(), 0).lost());
            assertEquals(step.toString(), List.of(1L, 2L), state.committed());
            assertTrue(step + ": marked as published", state.audited(2));
        }
    }

    private static long earliestOffset(String topic) {
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(Map.of("bootstrap.servers",
                cluster.brokers().bootstrapServers())))) {
            return reader.earliestOffset(new TopicPartition(topic, 0));
        }
    }

    private static void assertCountedOnce(Map<String, Object> settings, String auditTopic, CommitStep step) throws Exception {
        List<AuditEntry> loaded = hadoop(entries(cluster, auditTopic));
        Map<Long, Long> expected = expectedPerWindow(SENT);
        assertEquals(step + ": each window once", expected, countedPerWindow(loaded));
        AuditReport report = AuditReadBack.assertHadoopComplete(concat(producerCounts, loaded), expected.size(),
            step.toString());
        long republished = step == CommitStep.AUDIT_PUBLISHED ? expected.size() : 0;
        assertEquals(step + ": records published again under the same ids, ignored by the report", republished,
            report.duplicateRecords());

        StateDir state = StateDir.open((String) settings.get(LoadConfig.STATE_DIR_CONFIG), new Configuration());
        assertEquals(step.toString(), List.of(1L), state.committed());
        assertTrue(step + ": marked as published", state.audited(1));
        LoadedData.read((String) settings.get(LoadConfig.DATA_ROOT_CONFIG)).assertExactlyOnce(SENT, false);
    }
}
