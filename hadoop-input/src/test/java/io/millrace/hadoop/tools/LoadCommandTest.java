package io.millrace.hadoop.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoadedData;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.hadoop.hive.HiveConfig;
import io.millrace.hadoop.load.CommitHook;
import io.millrace.hadoop.load.CommitStep;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** bin/millrace load's main class: settings from a file and overrides, the summary on stdout, exit codes. */
public class LoadCommandTest {

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

    @Test
    public void loadsTheTopicsNamedOnTheCommandLineAndPrintsTheSummary() throws Exception {
        cluster.createTopic("cli", 2);
        List<SentEvent> sent = cluster.produce("cli", 2, 100, 2, 0);
        Map<String, Object> settings = cluster.loadSettings("cli", "not-this-one");
        Properties props = new Properties();
        settings.forEach((k, v) -> props.setProperty(k, String.valueOf(v)));
        props.remove(LoadConfig.DATA_ROOT_CONFIG);
        Path file = cluster.dir().resolve("load.properties");
        try (Writer out = Files.newBufferedWriter(file)) {
            props.store(out, null);
        }
        String dataRoot = (String) settings.get(LoadConfig.DATA_ROOT_CONFIG);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = LoadCommand.run(new String[] {"--config", file.toString(), "--topics", "cli",
            "--override", LoadConfig.DATA_ROOT_CONFIG + "=" + dataRoot,
            "--override", "hadoop.tmp.dir=" + cluster.dir().resolve("hadoop-tmp")}, new PrintStream(out), System.err);
        assertEquals(0, status);
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed, printed.contains("\"records\" : 200"));
        assertTrue("no JDBC URL, no Hive: " + printed, !printed.contains("\"hive\""));
        LoadedData.read(dataRoot).assertExactlyOnce(sent, false);
    }

    /** A Hive that cannot be reached does not fail a committed load: exit 3, the failure in the JSON and on stderr. */
    @Test
    public void aLoadThatHiveDidNotGetExitsWithThreeAndSaysHowToRepairIt() throws Exception {
        cluster.createTopic("cli-hive", 2);
        List<SentEvent> sent = cluster.produce("cli-hive", 2, 50, 2, 0);
        Map<String, Object> settings = cluster.loadSettings("cli-hive", "cli-hive");
        List<String> args = new ArrayList<>();
        settings.forEach((k, v) -> args.addAll(List.of("--override", k + "=" + v)));
        args.addAll(List.of("--override", "hadoop.tmp.dir=" + cluster.dir().resolve("hadoop-tmp"),
            "--override", HiveConfig.JDBC_URL_CONFIG + "=jdbc:no-such-driver://hive:10000/default"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(3, LoadCommand.run(args.toArray(String[]::new), new PrintStream(out), new PrintStream(err)));
        String printed = out.toString(StandardCharsets.UTF_8);
        assertTrue(printed, printed.contains("\"records\" : 100"));
        assertTrue(printed, printed.contains("\"hive\" : {"));
        assertTrue(printed, printed.contains("\"repair\" : \"bin/millrace hive-ddl --topic cli-hive --partitions\""));
        String error = err.toString(StandardCharsets.UTF_8);
        assertTrue(error, error.contains("the load is committed, but Hive did not get the 2 hours of topic cli-hive"));
        assertTrue(error, error.contains("bin/millrace hive-ddl --topic cli-hive --partitions"));
        assertTrue("says which jar to add and where: " + error, error.contains("No JDBC driver for jdbc:no-such-driver")
            && error.contains("CLASSPATH=/path/to/hive-jdbc-") && error.contains("HADOOP_CLASSPATH"));
        LoadedData.read((String) settings.get(LoadConfig.DATA_ROOT_CONFIG)).assertExactlyOnce(sent, false);

        out.reset();
        assertEquals("nothing new: nothing failed", 0, LoadCommand.run(args.toArray(String[]::new), new PrintStream(out), System.err));
        assertTrue(out.toString(StandardCharsets.UTF_8), out.toString(StandardCharsets.UTF_8).contains("nothing new to load"));
    }

    /** A failure after the commit point is not "nothing committed": exit 4, what was committed on stderr. */
    @Test
    public void aLoadThatFailsAfterItsCommitPointExitsWithFourAndSaysWhatWasCommitted() throws Exception {
        cluster.createTopic("cli-late", 2);
        List<SentEvent> sent = cluster.produce("cli-late", 2, 40, 2, 0);
        Map<String, Object> settings = cluster.loadSettings("cli-late", "cli-late");
        List<String> args = new ArrayList<>();
        settings.forEach((k, v) -> args.addAll(List.of("--override", k + "=" + v)));
        args.addAll(List.of("--override", "hadoop.tmp.dir=" + cluster.dir().resolve("hadoop-tmp")));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        CommitHook failAfterCommit = step -> {
            if (step == CommitStep.FIRST_FILE_MOVED) {
                throw new java.io.IOException("the data root went away");
            }
        };
        int status = LoadCommand.run(args.toArray(String[]::new), new PrintStream(new ByteArrayOutputStream()),
            new PrintStream(err), failAfterCommit);
        String said = err.toString(StandardCharsets.UTF_8);
        assertEquals(said, 4, status);
        assertTrue(said, said.contains("is committed (80 events, offsets of 2 partitions)"));
        assertTrue(said, said.contains("the data root went away") && said.contains("next load completes it"));
        assertTrue(said, !said.contains("committed nothing") && !said.contains("Nothing was committed"));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        assertEquals(0, LoadCommand.run(args.toArray(String[]::new), new PrintStream(out), System.err));
        LoadedData.read((String) settings.get(LoadConfig.DATA_ROOT_CONFIG)).assertExactlyOnce(sent, false);
    }

    @Test
    public void badArgumentsAndMissingSettingsExitWithTwoAndSaySo() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, LoadCommand.run(new String[] {"--topic", "x"}, System.out, new PrintStream(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("Unknown option --topic"));
        err.reset();
        assertEquals(2, LoadCommand.run(new String[] {"--topics", "x", "--override", "millrace.hadoop.state.dir=file:///s"},
            System.out, new PrintStream(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8).contains(LoadConfig.DATA_ROOT_CONFIG));
        assertEquals(2, LoadCommand.run(new String[] {"--topics", "x"}, System.out, new PrintStream(err)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains(LoadConfig.STATE_DIR_CONFIG));
    }
}
