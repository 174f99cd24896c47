package io.millrace.hadoop.load;

import static io.millrace.hadoop.AuditReadBack.countedPerWindow;
import static io.millrace.hadoop.AuditReadBack.entries;
import static io.millrace.hadoop.AuditReadBack.expectedPerWindow;
import static io.millrace.hadoop.AuditReadBack.hadoop;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.audit.AuditConfig;
import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoadedData;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.hadoop.input.MillraceKey;
import io.millrace.hadoop.input.MillraceValue;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.hadoop.state.StateDir;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.mapreduce.v2.MiniMRYarnCluster;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads on a MiniDFSCluster and a MiniMRYarnCluster, started once: the YARN runner retries failed task
 * attempts, which the LocalJobRunner does not. 3 topics x 4 partitions x 50,000 events into hdfs://,
 * then an incremental load whose map attempts all fail halfway the first time, then a load that
 * always fails. The tests run in name order and build on each other's data. Auditing is on: after each
 * load the hadoop tier's counts per window equal the events loaded, the failed attempts' counts left out.
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class LoaderMiniClusterIT {

    private static final Logger LOG = LoggerFactory.getLogger(LoaderMiniClusterIT.class);
    private static final List<String> TOPICS = List.of("page-views", "searches", "service-calls");
    private static final int PARTITIONS = 4;
    private static final int HOURS = 6;
    private static final String AUDIT_TOPIC = "_audit-it";

    private static LoaderCluster cluster;
    private static MiniDFSCluster dfs;
    private static MiniMRYarnCluster yarn;
    private static Configuration conf;
    private static final List<SentEvent> SENT = new ArrayList<>();
    private static Map<String, Object> settings;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LoaderCluster.start(Map.of());
        Configuration base = new Configuration();
        base.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, cluster.dir().resolve("dfs").toString());
        base.set("hadoop.tmp.dir", cluster.dir().resolve("hadoop-tmp").toString());
        long started = System.nanoTime();
        dfs = new MiniDFSCluster.Builder(base).numDataNodes(1).build();
        base.set("fs.defaultFS", dfs.getFileSystem().getUri().toString());
        base.setInt("yarn.nodemanager.resource.memory-mb", 4096);
        base.setInt("yarn.scheduler.minimum-allocation-mb", 512);
        base.setInt("mapreduce.map.memory.mb", 512);
        base.setInt("yarn.app.mapreduce.am.resource.mb", 512);
        base.set("mapreduce.map.java.opts", "-Xmx400m");
        base.set("yarn.app.mapreduce.am.command-opts", "-Xmx400m");
        yarn = new MiniMRYarnCluster("loader-it", 1);
        yarn.init(base);
        yarn.start();
        conf = new Configuration(yarn.getConfig());
        LOG.info("Mini clusters up in {} ms", (System.nanoTime() - started) / 1_000_000);
        for (String topic : TOPICS) {
            cluster.createTopic(topic, PARTITIONS);
        }
        settings = new HashMap<>(cluster.loadSettings("it", TOPICS.toArray(String[]::new)));
        String hdfs = dfs.getFileSystem().getUri().toString();
        settings.put(LoadConfig.DATA_ROOT_CONFIG, hdfs + "/data/millrace");
        settings.put(LoadConfig.STATE_DIR_CONFIG, hdfs + "/data/millrace-state");
        settings.put(LoadConfig.MAX_SPLIT_RECORDS_CONFIG, 150_000);
        settings.put(LoadConfig.LAYOUT_CONFIG, "hive");
        settings.put(LoadConfig.AUDIT_ENABLED_CONFIG, true);
        settings.put(AuditConfig.AUDIT_TOPIC_CONFIG, AUDIT_TOPIC);
    }

    @AfterClass
    public static void stop() {
        if (yarn != null) {
            yarn.stop();
        }
        if (dfs != null) {
            dfs.shutdown();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private static List<SentEvent> produce(int perPartition, int first) throws Exception {
        List<SentEvent> sent = new ArrayList<>();
        for (String topic : TOPICS) {
            sent.addAll(cluster.produce(topic, PARTITIONS, perPartition, HOURS, first));
        }
        return sent;
    }

    private static LoadJob load(Class<? extends LoadMapper> mapper, Configuration jobConf) {
        return new LoadJob(new LoadConfig(settings), jobConf, CommitHook.NONE, mapper);
    }

    @Test
    public void a_aLoadOnYarnPutsEveryEventIntoHdfsOnce() throws Exception {
        SENT.addAll(produce(50_000, 0));
        long started = System.nanoTime();
        LoadSummary summary = load(LoadMapper.class, conf).run();
        LOG.info("Loaded {} events on YARN in {} ms", summary.records(), (System.nanoTime() - started) / 1_000_000);
        assertEquals(SENT.size(), summary.records());
        LoadedData.read((String) settings.get(LoadConfig.DATA_ROOT_CONFIG), conf).assertExactlyOnce(SENT, true);
        assertAuditedOnce();
    }

    /** The hadoop tier's counts in the audit topic, per window, are the events loaded, each once. */
    private static void assertAuditedOnce() {
        assertEquals(expectedPerWindow(SENT), countedPerWindow(hadoop(entries(cluster, AUDIT_TOPIC))));
    }

    /** Every task's first attempt fails halfway through its split; the second attempt reads it all again. */
    public static class FailsFirstAttemptMapper extends LoadMapper {
        private long seen;

        @Override
        protected void map(MillraceKey key, MillraceValue value, Context context) throws IOException, InterruptedException {
            super.map(key, value, context);
            if (context.getTaskAttemptID().getId() == 0 && ++seen >= Math.max(1, context.getInputSplit().getLength() / 2)) {
                throw new IOException("failing the first attempt halfway, after " + seen + " events");
            }
        }
    }

    @Test
    public void b_firstAttemptsThatFailHalfwayAreRetriedWithoutDuplicates() throws Exception {
        List<SentEvent> more = produce(1_000, 50_000);
        LoadJob load = load(FailsFirstAttemptMapper.class, conf);
        LoadSummary summary = load.run();
        assertEquals(more.size(), summary.records());
        long failed = load.counters().findCounter(org.apache.hadoop.mapreduce.JobCounter.NUM_FAILED_MAPS).getValue();
        assertTrue("first attempts failed: " + failed, failed > 0);
        assertTrue(load.counters().findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue() >= more.size());
        SENT.addAll(more);
        LoadedData.read((String) settings.get(LoadConfig.DATA_ROOT_CONFIG), conf).assertExactlyOnce(SENT, true);
        assertAuditedOnce();
    }

    @Test
    public void c_aJobThatAlwaysFailsLeavesNothingVisible() throws Exception {
        produce(100, 51_000);
        Configuration failing = new Configuration(conf);
        failing.setInt("mapreduce.map.maxattempts", 2);
        assertThrows(LoadFailedException.class, () -> load(LoadJobTest.BrokenMapper.class, failing).run());
        LoadedData.read((String) settings.get(LoadConfig.DATA_ROOT_CONFIG), conf).assertExactlyOnce(SENT, true);
        StateDir state = StateDir.open((String) settings.get(LoadConfig.STATE_DIR_CONFIG), conf);
        assertEquals(List.of(1L, 2L), state.committed());
        assertEquals(List.of(), state.loadDirs());
        assertAuditedOnce();
    }
}
