package io.millrace.hadoop.load;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoadedData;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.schemaregistry.serde.EventHeaders;
import io.millrace.testkit.PythonEnvironment;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * The loader's Avro container files read by fastavro, an Avro implementation nobody here wrote and
 * independent of the Java one that wrote them (installed from PyPI into a virtual environment under
 * target/; skipped with the reason without python3 or PyPI): with either codec it finds every
 * event once, in its hour's directory, with the payload and event time sent and the event schema.
 */
public class FastavroReadsLoadedFilesIT {

    /** Pinned so that the build is repeatable; cramjam is what fastavro decompresses snappy with. */
    private static final String[] PACKAGES = {"fastavro==1.13.1", "cramjam==2.14.0"};
    private static final Path SCRIPT = Path.of("target", "test-classes", "fastavro", "read_loaded.py");

    private static PythonEnvironment python;
    private static LoaderCluster cluster;

    @BeforeClass
    public static void start() throws Exception {
        python = PythonEnvironment.install(Path.of("target", "fastavro-venv"), PACKAGES);
        cluster = LoaderCluster.start(Map.of());
    }

    @AfterClass
    public static void stop() {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test(timeout = 300_000)
    public void snappyFilesHoldEveryEventOnceAsSent() throws Exception {
        readsEveryEventOnce("snappy");
    }

    @Test(timeout = 300_000)
    public void deflateFilesHoldEveryEventOnceAsSent() throws Exception {
        readsEveryEventOnce("deflate");
    }

    private void readsEveryEventOnce(String codec) throws Exception {
        String topic = "fastavro-" + codec;
        cluster.createTopic(topic, 2);
        List<SentEvent> sent = cluster.produce(topic, 2, 400, 3, 0);
        Map<String, Object> settings = cluster.loadSettings(topic, topic);
        settings.put(LoadConfig.CODEC_CONFIG, codec);
        assertEquals(sent.size(), new LoadJob(new LoadConfig(settings), cluster.localJobConf()).run().records());
        String root = (String) settings.get(LoadConfig.DATA_ROOT_CONFIG);

        PythonEnvironment.Result result = python.run(SCRIPT, List.of(Path.of(URI.create(root)).toString(),
            EventHeaders.HEADER_FIELD, EventHeaders.TIME_FIELD), 200);
        assertEquals("read_loaded.py failed: " + result.output(), 0, result.exit());
        List<String> files = new ArrayList<>();
        List<String> events = new ArrayList<>();
        for (String line : result.output().lines().toList()) {
            String[] cells = line.split("\t");
            if (cells[0].equals("file")) {
                assertEquals(line, codec, cells[2]);
                assertEquals(line, LoaderCluster.EVENT.getFullName(), cells[3]);
                files.add(cells[1]);
            } else if (cells[0].equals("event")) {
                events.add(cells[1] + "\t" + cells[2] + "\t" + cells[3]);
            }
        }
        assertTrue("one file an hour at least: " + files, files.size() >= 3);
        // what the Java reader sees, event by event: the same directories, payloads and times
        List<String> javaView = LoadedData.read(root).events().stream()
            .map(e -> e.directory() + "\t" + e.payload() + "\t" + e.timeMs()).sorted().toList();
        assertEquals(sent.size(), javaView.size());
        assertEquals(javaView, events.stream().sorted().toList());
        LoadedData.read(root).assertExactlyOnce(sent, false);
    }
}
