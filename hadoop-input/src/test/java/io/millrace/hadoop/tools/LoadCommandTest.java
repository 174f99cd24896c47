package io.millrace.hadoop.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoadedData;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
        LoadedData.read(dataRoot).assertExactlyOnce(sent, false);
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
