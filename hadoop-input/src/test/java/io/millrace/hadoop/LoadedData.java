package io.millrace.hadoop;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.LoaderCluster.SentEvent;
import io.millrace.schemaregistry.serde.EventHeaders;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/** What a data root holds: every event of every Avro file, with the directory it is in. */
public record LoadedData(List<Loaded> events) {

    /** One loaded event: its topic, the hour directory it is in (relative to the data root), payload and event time. */
    public record Loaded(String topic, String directory, String file, String payload, long timeMs) {
    }

    public static LoadedData read(String dataRootUri) throws IOException {
        return read(dataRootUri, new Configuration());
    }

    /** The events under {@code dataRootUri}, on any Hadoop file system. */
    public static LoadedData read(String dataRootUri, Configuration conf) throws IOException {
        Path root = new Path(dataRootUri);
        FileSystem fs = root.getFileSystem(conf);
        root = fs.makeQualified(root);
        List<Loaded> events = new ArrayList<>();
        if (!fs.exists(root)) {
            return new LoadedData(events);
        }
        RemoteIterator<LocatedFileStatus> files = fs.listFiles(root, true);
        while (files.hasNext()) {
            Path file = files.next().getPath();
            if (file.getName().endsWith(".avro")) {
                String directory = file.getParent().toUri().getPath().substring(root.toUri().getPath().length() + 1);
                readFile(fs, file, directory, events);
            }
        }
        return new LoadedData(events);
    }

    private static void readFile(FileSystem fs, Path file, String directory, List<Loaded> events) throws IOException {
        String topic = directory.substring(0, directory.indexOf('/'));
        try (InputStream in = fs.open(file);
             DataFileStream<GenericRecord> reader = new DataFileStream<>(in, new GenericDatumReader<>())) {
            for (GenericRecord event : reader) {
                GenericRecord header = (GenericRecord) event.get(EventHeaders.HEADER_FIELD);
                events.add(new Loaded(topic, directory, file.getName(), event.get("payload").toString(),
                    (Long) header.get(EventHeaders.TIME_FIELD)));
            }
        }
    }

    /** Asserts that every sent event was loaded exactly once, into the directory of its topic and event hour, unchanged. */
    public void assertExactlyOnce(List<SentEvent> sent, boolean hiveLayout) {
        Map<String, Loaded> byPayload = new HashMap<>();
        for (Loaded event : events) {
            Loaded twice = byPayload.put(event.payload(), event);
            assertTrue("loaded twice: " + event + " and " + twice, twice == null);
        }
        HourLayout layout = hiveLayout ? HourLayout.HIVE : HourLayout.HOURLY;
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
