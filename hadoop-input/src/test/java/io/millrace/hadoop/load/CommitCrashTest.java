package io.millrace.hadoop.load;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoadedData;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.hadoop.state.StateDir;
import java.io.File;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * A crash at every step of the commit, then the next load: every event ends up loaded exactly once.
 * In-process, the crash is an Error thrown from the commit hook (the driver has no cleanup on its
 * commit path, so nothing runs after it, as after a kill); in a child JVM, Runtime.halt.
 */
public class CommitCrashTest {

    private static final String TOPIC = "crashing";

    private static LoaderCluster cluster;
    private static final List<SentEvent> SENT = new ArrayList<>();

    @BeforeClass
    public static void start() throws Exception {
        cluster = LoaderCluster.start(Map.of());
        cluster.createTopic(TOPIC, 3);
        SENT.addAll(cluster.produce(TOPIC, 3, 400, 4, 0));
    }

    @AfterClass
    public static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    /** What a crash looks like to the code that was running: nothing after it happens. */
    static final class SimulatedCrash extends Error {
        SimulatedCrash(CommitStep step) {
            super("crashed at " + step);
        }
    }

    @Test
    public void aCrashAtAnyCommitStepIsRecoveredByTheNextLoadWithEveryEventOnce() throws Exception {
        for (CommitStep step : CommitStep.values()) {
            Map<String, Object> settings = cluster.loadSettings("crash-" + step, TOPIC);
            settings.put(LoadConfig.MAX_SPLIT_RECORDS_CONFIG, 250);
            CommitHook crash = reached -> {
                if (reached == step) {
                    throw new SimulatedCrash(step);
                }
            };
            LoadJob crashing = new LoadJob(new LoadConfig(settings), cluster.localJobConf(), crash, LoadMapper.class);
            assertThrows(SimulatedCrash.class, crashing::run);
            new LoadJob(new LoadConfig(settings), cluster.localJobConf()).run();
            assertRecovered(settings, step.toString());
        }
    }

    @Test
    public void aLoadHaltedInItsOwnJvmAfterTheCommitPointIsCompletedByTheNext() throws Exception {
        for (CommitStep step : List.of(CommitStep.MANIFEST_WRITTEN, CommitStep.COMMITTED, CommitStep.FIRST_FILE_MOVED)) {
            Map<String, Object> settings = cluster.loadSettings("halt-" + step, TOPIC);
            settings.put(LoadConfig.MAX_SPLIT_RECORDS_CONFIG, 250);
            assertEquals(HaltingLoad.HALTED, runHalting(settings, step));
            StateDir state = StateDir.open((String) settings.get(LoadConfig.STATE_DIR_CONFIG), new Configuration());
            assertEquals("halted before or after the commit point", step == CommitStep.MANIFEST_WRITTEN ? List.of() : List.of(1L),
                state.committed());
            new LoadJob(new LoadConfig(settings), cluster.localJobConf()).run();
            assertRecovered(settings, "halted at " + step);
        }
    }

    private static void assertRecovered(Map<String, Object> settings, String what) throws Exception {
        LoadedData.read((String) settings.get(LoadConfig.DATA_ROOT_CONFIG)).assertExactlyOnce(SENT, false);
        StateDir state = StateDir.open((String) settings.get(LoadConfig.STATE_DIR_CONFIG), new Configuration());
        assertEquals(what, List.of(), state.pending());
        assertEquals(what, List.of(), state.loadDirs());
        assertEquals(what, 1, state.committed().size());
        assertEquals(what, 3, state.newest().orElseThrow().offsets().size());
        assertTrue(what, state.newest().orElseThrow().offsets().stream().allMatch(o -> o.offset() == 400));
    }

    private static int runHalting(Map<String, Object> settings, CommitStep step) throws Exception {
        Properties props = new Properties();
        settings.forEach((k, v) -> props.setProperty(k, String.valueOf(v)));
        Configuration local = cluster.localJobConf();
        local.forEach(e -> {
            if (e.getKey().startsWith("mapreduce.") || e.getKey().equals("fs.defaultFS") || e.getKey().equals("hadoop.tmp.dir")) {
                props.setProperty(e.getKey(), e.getValue());
            }
        });
        Path file = cluster.dir().resolve("halt-" + step + ".properties");
        try (Writer out = Files.newBufferedWriter(file)) {
            props.store(out, null);
        }
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-Xmx512m", "-cp", System.getProperty("java.class.path"),
            HaltingLoad.class.getName(), file.toString(), step.name())
            .redirectErrorStream(true).redirectOutput(new File(file + ".log")).start();
        assertTrue("the halting load ends", process.waitFor(120, TimeUnit.SECONDS));
        return process.exitValue();
    }
}
