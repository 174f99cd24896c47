package io.millrace.hadoop;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.hadoop.load.HourLayout;
import io.millrace.schemaregistry.serde.EventHeaders;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.file.DataFileReader;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;

/** What a data root on the local file system holds: every event of every Avro file, with the directory it is in. */
public record LoadedData(List<Loaded> events) {

    /** One loaded event: its topic, the hour directory it is in (relative to the data root), payload and event time. */
    public record Loaded(String topic, String directory, String file, String payload, long timeMs) {
    }

    public static LoadedData read(String dataRootUri) throws IOException {
        Path root = Path.of(URI.create(dataRootUri));
        List<Loaded> events = new ArrayList<>();
        if (!Files.exists(root)) {
            return new LoadedData(events);
        }
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".avro")).toList()) {
                String directory = root.relativize(file.getParent()).toString();
                String topic = directory.substring(0, directory.indexOf('/'));
                try (DataFileReader<GenericRecord> reader = new DataFileReader<>(file.toFile(), new GenericDatumReader<>())) {
                    for (GenericRecord event : reader) {
                        GenericRecord header = (GenericRecord) event.get(EventHeaders.HEADER_FIELD);
                        events.add(new Loaded(topic, directory, file.getFileName().toString(), event.get("payload").toString(),
                            (Long) header.get(EventHeaders.TIME_FIELD)));
                    }
                }
            }
        }
        return new LoadedData(events);
    }

    /** Asserts that every sent event was loaded exactly once, into the directory of its topic and event hour, unchanged. */
    public void assertExactlyOnce(List<SentEvent> sent, boolean hiveLayout) {
        Map<String, Loaded> byPayload = new HashMap<>();
        for (Loaded event : events) {
            Loaded twice = byPayload.put(event.payload(), event);
            assertTrue("loaded twice: " + event + " and " + twice, twice == null);
        }
        HourLayout layout = new HourLayout(hiveLayout);
        for (SentEvent event : sent) {
            Loaded loaded = byPayload.remove(event.payload());
            assertTrue("not loaded: " + event, loaded != null);
            assertEquals(event.topic(), loaded.topic());
            assertEquals(event.timeMs(), loaded.timeMs());
            assertEquals(layout.directory(event.topic(), HourLayout.hourOf(event.timeMs())), loaded.directory());
        }
        assertTrue("loaded but never sent: " + byPayload.keySet(), byPayload.isEmpty());
    }
}
