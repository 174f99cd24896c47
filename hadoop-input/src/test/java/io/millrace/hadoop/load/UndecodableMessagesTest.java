package io.millrace.hadoop.load;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.LoadedData;
import io.millrace.hadoop.LoaderCluster;
import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.hadoop.input.ErrorOutput;
import io.millrace.hadoop.input.LoaderCounter;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.hadoop.state.StateDir;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/** Messages that are not Avro events go to the error output with their coordinates; too many fail the load. */
public class UndecodableMessagesTest {

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
    public void undecodableMessagesGoToTheErrorOutputAndAreCounted() throws Exception {
        cluster.createTopic("mixed", 2);
        List<SentEvent> sent = new ArrayList<>(cluster.produce("mixed", 2, 200, 2, 0));
        cluster.sendUndecodable("mixed", 2, 3);
        sent.addAll(cluster.produce("mixed", 2, 200, 2, 200));
        Map<String, Object> settings = cluster.loadSettings("mixed", "mixed");
        settings.put(LoadConfig.MAX_ERROR_PERCENT_CONFIG, 5);
        LoadJob load = new LoadJob(new LoadConfig(settings), cluster.localJobConf());
        LoadSummary summary = load.run();
        assertEquals(6, load.counters().findCounter(LoaderCounter.UNDECODABLE_MESSAGES).getValue());
        assertEquals(6, summary.errors());
        assertEquals(800, summary.records());
        LoadedData.read((String) settings.get(LoadConfig.DATA_ROOT_CONFIG)).assertExactlyOnce(sent, false);

        StateDir state = StateDir.open((String) settings.get(LoadConfig.STATE_DIR_CONFIG), new Configuration());
        Set<String> errors = new HashSet<>();
        for (GenericRecord error : readAvro(Path.of(URI.create(state.errors(1).toString())))) {
            errors.add(error.get("partition") + "@" + error.get("offset"));
            assertTrue(error.get("error").toString(), error.get("error").toString().contains("magic byte"));
            assertTrue(StandardCharsets.UTF_8.decode((java.nio.ByteBuffer) error.get("value")).toString().startsWith("not avro"));
        }
        assertEquals(Set.of("0@200", "0@201", "0@202", "1@200", "1@201", "1@202"), errors);
    }

    @Test
    public void tooManyUndecodableMessagesFailTheLoadAndLeaveNothingVisible() throws Exception {
        cluster.createTopic("garbled", 1);
        cluster.produce("garbled", 1, 100, 2, 0);
        cluster.sendUndecodable("garbled", 1, 5);
        Map<String, Object> settings = cluster.loadSettings("garbled", "garbled");
        settings.put(LoadConfig.MAX_ERROR_PERCENT_CONFIG, 1);
        LoadFailedException failure = assertThrows(LoadFailedException.class,
            () -> new LoadJob(new LoadConfig(settings), cluster.localJobConf()).run());
        assertTrue(failure.getMessage(), failure.getMessage().contains("5 of 105 messages"));
        assertTrue(LoadedData.read((String) settings.get(LoadConfig.DATA_ROOT_CONFIG)).events().isEmpty());
        StateDir state = StateDir.open((String) settings.get(LoadConfig.STATE_DIR_CONFIG), new Configuration());
        assertEquals(List.of(), state.committed());
        assertEquals(List.of(), state.loadDirs());
        Path failed = Path.of(URI.create(state.root().toString())).resolve("failed");
        try (Stream<Path> files = Files.walk(failed)) {
            assertEquals("the undecodable messages are kept to look at", 1,
                files.filter(f -> f.toString().endsWith(".errors.avro")).count());
        }
    }

    private static List<GenericRecord> readAvro(Path dir) throws Exception {
        List<GenericRecord> records = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".avro")).toList()) {
                try (DataFileReader<GenericRecord> reader = new DataFileReader<>(file.toFile(),
                        new GenericDatumReader<>(ErrorOutput.SCHEMA))) {
                    reader.forEach(records::add);
                }
            }
        }
        return records;
    }
}
