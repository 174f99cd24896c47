package io.millrace.hadoop.load;

import static io.millrace.hadoop.AuditReadBack.concat;
import static io.millrace.hadoop.AuditReadBack.countedPerWindow;
import static io.millrace.hadoop.AuditReadBack.entries;
import static io.millrace.hadoop.AuditReadBack.expectedPerWindow;
import static io.millrace.hadoop.AuditReadBack.hadoop;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.audit.AuditConfig;
import io.millrace.audit.AuditPublisher;
import io.millrace.audit.report.AuditEntry;
import io.millrace.audit.report.AuditReport;
import io.millrace.hadoop.AuditReadBack;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoadedData;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.hadoop.load.CommitCrashTest.SimulatedCrash;
import io.millrace.hadoop.state.StateDir;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The hadoop tier of the audit across a crash: a load killed at each commit step and completed by the next
 * load publishes its counts exactly once, and nothing before the audit topic acknowledged them (so nothing
 * before the commit point). Each step loads the same events into a state directory and an audit topic of
 * its own, and the report is made from that audit topic and the front-end's counts of the events.
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
