package io.millrace.hadoop.load;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoadedData;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.hadoop.hive.HiveConfig;
import io.millrace.hadoop.hive.HiveRegistration;
import io.millrace.hadoop.input.LoaderCounter;
import io.millrace.hadoop.input.MillraceKey;
import io.millrace.hadoop.input.MillraceValue;
import io.millrace.hadoop.state.HourCount;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.hadoop.state.StateDir;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.MRConfig;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** Loads on the LocalJobRunner from a real broker and registry: exactly once, by event hour, incrementally. */
public class LoadJobTest {

    private static final List<String> TOPICS = List.of("page-views", "searches", "service-calls");
    private static final int PARTITIONS = 4;
    private static final int HOURS = 5;

    private static LoaderCluster cluster;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LoaderCluster.start(Map.of());
        for (String topic : TOPICS) {
            cluster.createTopic(topic, PARTITIONS);
        }
    }

    @AfterClass
    public static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private static List<SentEvent> produceAll(int perPartition, int first) throws Exception {
        List<SentEvent> sent = new ArrayList<>();
        for (String topic : TOPICS) {
            sent.addAll(cluster.produce(topic, PARTITIONS, perPartition, HOURS, first));
        }
        return sent;
    }

    static LoadSummary load(Map<String, Object> settings) throws IOException, InterruptedException {
        return load(cluster, settings);
    }

    static LoadSummary load(LoaderCluster on, Map<String, Object> settings) throws IOException, InterruptedException {
        return new LoadJob(new LoadConfig(settings), on.localJobConf()).run();
    }

    @Test
    public void everyEventIsLoadedOnceIntoItsHourAndALaterLoadTakesOnlyTheNewOnes() throws Exception {
        List<SentEvent> sent = produceAll(2_000, 0);
        Map<String, Object> settings = cluster.loadSettings("main", TOPICS.toArray(String[]::new));
        settings.put(LoadConfig.MAX_SPLIT_RECORDS_CONFIG, 1_500);
        settings.put(LoadConfig.LAYOUT_CONFIG, "hive");
        LoadJob firstLoad = new LoadJob(new LoadConfig(settings), cluster.localJobConf());
        LoadSummary first = firstLoad.run();
        assertNull("no JDBC URL, no Hive", firstLoad.hiveRegistration());
        assertEquals(sent.size(), first.records());
        assertEquals(0, first.errors());
        // The mapper reads most records past the framework's wrapper, which counts only one in 1,024 of them.
        assertEquals(sent.size(), firstLoad.counters().findCounter(TaskCounter.MAP_INPUT_RECORDS).getValue());
        assertEquals(sent.size(), firstLoad.counters().findCounter(LoaderCounter.MESSAGES_READ).getValue());
        assertEquals(sent.size(), firstLoad.counters().findCounter(LoaderCounter.EVENTS_WRITTEN).getValue());
        assertEquals(TOPICS.size() * HOURS, first.counts().size());
        assertTrue("nothing was there before: " + first.lateHours(), first.lateHours().isEmpty());
        LoadedData.read(dataRoot(settings)).assertExactlyOnce(sent, true);

        List<SentEvent> more = produceAll(300, 2_000);
        LoadSummary second = load(settings);
        assertEquals(more.size(), second.records());
        assertEquals("the new events fall into hours loaded before", TOPICS.size() * HOURS, second.lateHours().size());
        sent.addAll(more);
        LoadedData.read(dataRoot(settings)).assertExactlyOnce(sent, true);

        assertNull("nothing new, nothing committed", load(settings));
        StateDir state = StateDir.open((String) settings.get(LoadConfig.STATE_DIR_CONFIG), cluster.localJobConf());
        assertEquals(List.of(1L, 2L), state.committed());
        assertEquals(List.of(), state.pending());
        assertEquals(List.of(), state.loadDirs());
    }

    @Test
    public void onTheLocalJobRunnerTheClientAsksOftenWhetherTheJobIsDoneUnlessToldOtherwise() throws Exception {
        Configuration local = Job.getInstance(new Configuration()).getConfiguration();
        local.setInt(Job.COMPLETION_POLL_INTERVAL_KEY, 2_000);
        LoadJob.pollOftenWhenLocal(local);
        assertEquals("the user's own setting", 2_000, Job.getCompletionPollInterval(local));
        assertEquals("instead of Hadoop's default of 1 s", 50, Job.getProgressPollInterval(local));

        Configuration yarn = Job.getInstance(new Configuration()).getConfiguration();
        yarn.set(MRConfig.FRAMEWORK_NAME, MRConfig.YARN_FRAMEWORK_NAME);
        LoadJob.pollOftenWhenLocal(yarn);
        assertEquals("a cluster's job is asked as Hadoop asks", 5_000, Job.getCompletionPollInterval(yarn));
        assertEquals(1_000, Job.getProgressPollInterval(yarn));
    }

    /** Fails every attempt of every task, as a bug in the job would. */
    public static class BrokenMapper extends LoadMapper {
        @Override
        protected void map(MillraceKey key, MillraceValue value, Context context) {
            throw new IllegalStateException("broken on purpose");
        }
    }

    @Test
    public void aJobThatFailsLeavesNothingVisibleAndTheNextLoadTakesEverythingOnce() throws Exception {
        cluster.createTopic("failing", 2);
        List<SentEvent> sent = cluster.produce("failing", 2, 500, 3, 0);
        Map<String, Object> settings = cluster.loadSettings("failing", "failing");
        LoadJob broken = new LoadJob(new LoadConfig(settings), cluster.localJobConf(), CommitHook.NONE, BrokenMapper.class);
        assertThrows(LoadFailedException.class, broken::run);
        assertTrue(LoadedData.read(dataRoot(settings)).events().isEmpty());
        StateDir state = StateDir.open((String) settings.get(LoadConfig.STATE_DIR_CONFIG), cluster.localJobConf());
        assertEquals(List.of(), state.committed());

        assertEquals(sent.size(), load(settings).records());
        LoadedData.read(dataRoot(settings)).assertExactlyOnce(sent, false);
    }

    /**
     * Without a Hive JDBC URL nothing is registered; with one whose driver is not on the classpath the load
     * still commits (registration comes after the commit and cannot undo it), and the failure is reported per
     * topic with every hour it wrote, late ones included, and the command that registers them by hand.
     */
    @Test
    public void registeringInHiveComesAfterTheCommitAndAFailureThereIsReportedNotUndone() throws Exception {
        cluster.createTopic("hive-views", 2);
        List<SentEvent> sent = cluster.produce("hive-views", 2, 300, 3, 0);
        Map<String, Object> settings = cluster.loadSettings("hive-views", "hive-views");
        settings.put(LoadConfig.LAYOUT_CONFIG, "hive");
        LoadJob withoutHive = new LoadJob(new LoadConfig(settings), cluster.localJobConf());
        assertEquals(sent.size(), withoutHive.run().records());
        assertNull("no JDBC URL, nothing tried", withoutHive.hiveRegistration());

        List<SentEvent> more = cluster.produce("hive-views", 2, 200, 3, 300);
        settings.put(HiveConfig.JDBC_URL_CONFIG, "jdbc:no-such-driver://hive:10000/default");
        LoadJob unreachable = new LoadJob(new LoadConfig(settings), cluster.localJobConf());
        LoadSummary second = unreachable.run();
        assertEquals(more.size(), second.records());
        StateDir state = StateDir.open((String) settings.get(LoadConfig.STATE_DIR_CONFIG), cluster.localJobConf());
        assertEquals(List.of(1L, 2L), state.committed());
        assertEquals(List.of(), state.pending());
        sent.addAll(more);
        LoadedData.read(dataRoot(settings)).assertExactlyOnce(sent, true);

        HiveRegistration hive = unreachable.hiveRegistration();
        assertEquals(List.of(), hive.registered());
        assertEquals(1, hive.failed().size());
        HiveRegistration.Failed failed = hive.failed().get(0);
        assertEquals("hive-views", failed.topic());
        assertEquals(second.counts().stream().map(HourCount::hour).toList(), failed.hours());
        assertEquals("all three hours had data before: late, and registered all the same", 3, second.lateHours().size());
        assertTrue(failed.error(), failed.error().contains("No JDBC driver for jdbc:no-such-driver://hive:10000/default")
            && failed.error().contains("CLASSPATH"));
        assertEquals("bin/millrace hive-ddl --topic hive-views --partitions", failed.repair());

        LoadJob nothingNew = new LoadJob(new LoadConfig(settings), cluster.localJobConf());
        assertNull(nothingNew.run());
        assertEquals(new HiveRegistration(List.of(), List.of()), nothingNew.hiveRegistration());
    }

    static String dataRoot(Map<String, Object> settings) {
        return (String) settings.get(LoadConfig.DATA_ROOT_CONFIG);
    }

    static Set<String> payloads(List<SentEvent> sent) {
        return sent.stream().map(SentEvent::payload).collect(Collectors.toSet());
    }
}
