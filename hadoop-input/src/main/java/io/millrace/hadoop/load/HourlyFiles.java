package io.millrace.hadoop.load;

import io.millrace.hadoop.HourLayout;
import io.millrace.hadoop.LoadConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The Avro container files of one task: one per topic, event hour and writer schema, under
 * {@code <work>/data/<topic>/hourly/<hour>/}, named after the task's ranges of that topic
 * ({@code <topic>+<partition>+<start>+<end>[+Nmore].s<schema id>.avro}). Ranges of different loads never
 * overlap, so names never collide in the data root, and a rerun of the same plan writes the same names.
 * All small partitions of a split that fall into one hour share one file. Not thread-safe.
 */
final class HourlyFiles implements AutoCloseable {

    static final String DATA_DIRECTORY = "data";

    private final FileSystem fs;
    private final Path work;
    private final HourLayout layout;
    private final CodecFactory codec;
    private final Map<String, String> namesByTopic;
    private final Map<String, Open> open = new LinkedHashMap<>();
    private Open last;

    HourlyFiles(FileSystem fs, Path work, LoadConfig config, Map<String, String> namesByTopic) {
        this.fs = fs;
        this.work = work;
        this.layout = config.layout();
        this.codec = config.codec().equals("deflate") ? CodecFactory.deflateCodec(config.deflateLevel())
            : CodecFactory.snappyCodec();
        this.namesByTopic = namesByTopic;
    }

    // hot path: once per event
    void append(String topic, long eventTimeMs, int schemaId, GenericRecord event) throws IOException {
        long hour = HourLayout.hourOf(eventTimeMs);
        Open file = last;
        // A partition holds its events mostly in time order, so an event nearly always goes where the one
        // before it went; the file's path (a String.format) is worked out only when the hour changes.
        if (file == null || file.file.hourMs() != hour || file.file.schemaId() != schemaId || !file.file.topic().equals(topic)) {
            file = fileFor(topic, hour, schemaId, event);
            last = file;
        }
        file.writer.append(event);
        file.records++;
    }

    private Open fileFor(String topic, long hour, int schemaId, GenericRecord first) throws IOException {
        String relative = DATA_DIRECTORY + "/" + layout.directory(topic, hour) + "/" + namesByTopic.get(topic)
            + ".s" + schemaId + ".avro";
        Open file = open.get(relative);
        if (file == null) {
            file = create(relative, topic, hour, schemaId, first);
            open.put(relative, file);
        }
        return file;
    }

    private Open create(String relative, String topic, long hour, int schemaId, GenericRecord first) throws IOException {
        DataFileWriter<GenericRecord> writer = new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(first.getSchema()));
        writer.setCodec(codec);
        writer.setMeta("millrace.topic", topic);
        writer.setMeta("millrace.schema.id", schemaId);
        writer.create(first.getSchema(), fs.create(new Path(work, relative), true));
        return new Open(writer, new WrittenFile(relative, topic, hour, schemaId, 0));
    }

    /** Closes every file and returns what was written. */
    List<WrittenFile> finish() throws IOException {
        List<WrittenFile> written = new ArrayList<>();
        for (Open file : open.values()) {
            file.writer.close();
            WrittenFile w = file.file;
            written.add(new WrittenFile(w.path(), w.topic(), w.hourMs(), w.schemaId(), file.records));
        }
        open.clear();
        last = null;
        return written;
    }

    @Override
    public void close() throws IOException {
        for (Open file : open.values()) {
            file.writer.close();
        }
        open.clear();
        last = null;
    }

    private static final class Open {
        final DataFileWriter<GenericRecord> writer;
        final WrittenFile file;
        long records;

        Open(DataFileWriter<GenericRecord> writer, WrittenFile file) {
            this.writer = writer;
            this.file = file;
        }
    }
}
