package io.millrace.hadoop.load;

import io.millrace.hadoop.HourLayout;
import io.millrace.hadoop.LoadConfig;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The Avro container files of one task: one per topic, event hour and writer schema, under
 * {@code <work>/data/<topic>/hourly/<hour>/}, named after the task's ranges of that topic
 * ({@code <topic>+<partition>+<start>+<end>[+Nmore].s<schema id>.avro}). Ranges of different loads never
 * overlap, so names never collide in the data root, and a rerun of the same plan writes the same names.
 * All small partitions of a split that fall into one hour share one file. Events are appended as the
 * Avro binary they came in: a file holds the events of one writer's schema, whose encoding they already
 * are, so decoding and encoding them again would give the same datum. The appending itself, where the
 * blocks are compressed and written, runs on a thread of its own ({@link BackgroundAppender}), beside the
 * task's reading. Not thread-safe.
 */
final class HourlyFiles implements AutoCloseable {

    static final String DATA_DIRECTORY = "data";

    // Hadoop's checksummed file systems hand the data to the file in pieces of 4.6 KB, each a write call
    // with the default 4 KB buffer; a 256 KB buffer cut the cost of writing an event by about 40%. Only a
    // task's first files get it (a file costs twice the buffer: data and checksums), so a task writing
    // many topics and hours stays within a few tens of MB.
    private static final int WRITE_BUFFER_BYTES = 256 * 1024;
    private static final int LARGE_BUFFER_FILES = 64;

    private final FileSystem fs;
    private final Path work;
    private final HourLayout layout;
    private final CodecFactory codec;
    private final Map<String, String> namesByTopic;
    private final Map<String, Open> open = new LinkedHashMap<>();
    private final String appenderName;
    private BackgroundAppender appender;   // started with the first event
    private Open last;

    HourlyFiles(FileSystem fs, Path work, LoadConfig config, Map<String, String> namesByTopic) {
        this.fs = fs;
        this.work = work;
        this.layout = config.layout();
        this.codec = config.codec().equals("deflate") ? CodecFactory.deflateCodec(config.deflateLevel())
            : CodecFactory.snappyCodec();
        this.namesByTopic = namesByTopic;
        this.appenderName = "millrace-load-appender-" + work.getName();
    }

    // hot path: once per event
    /** Appends {@code datum}, an event encoded with {@code schema} (registry id {@code schemaId}). */
    void append(String topic, long eventTimeMs, int schemaId, Schema schema, ByteBuffer datum) throws IOException {
        long hour = HourLayout.hourOf(eventTimeMs);
        Open file = last;
        // A partition holds its events mostly in time order, so an event nearly always goes where the one
        // before it went; the file's path (a String.format) is worked out only when the hour changes.
        if (file == null || file.file.hourMs() != hour || file.file.schemaId() != schemaId || !file.file.topic().equals(topic)) {
            file = fileFor(topic, hour, schemaId, schema);
            last = file;
        }
        if (appender == null) {
            appender = new BackgroundAppender(appenderName);
        }
        appender.append(file.writer, datum);
        file.records++;
    }

    private Open fileFor(String topic, long hour, int schemaId, Schema schema) throws IOException {
        String relative = DATA_DIRECTORY + "/" + layout.directory(topic, hour) + "/" + namesByTopic.get(topic)
            + ".s" + schemaId + ".avro";
        Open file = open.get(relative);
        if (file == null) {
            file = create(relative, topic, hour, schemaId, schema);
            open.put(relative, file);
        }
        return file;
    }

    private Open create(String relative, String topic, long hour, int schemaId, Schema schema) throws IOException {
        DataFileWriter<Object> writer = new DataFileWriter<>(new GenericDatumWriter<>(schema));
        writer.setCodec(codec);
        writer.setMeta("millrace.topic", topic);
        writer.setMeta("millrace.schema.id", schemaId);
        int buffer = open.size() < LARGE_BUFFER_FILES ? WRITE_BUFFER_BYTES : fs.getConf().getInt("io.file.buffer.size", 4096);
        writer.create(schema, fs.create(new Path(work, relative), true, buffer));
        return new Open(writer, new WrittenFile(relative, topic, hour, schemaId, 0));
    }

    /** Closes every file and returns what was written. */
    List<WrittenFile> finish() throws IOException {
        if (appender != null) {
            appender.finish();
            appender = null;
        }
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

    /**
     * Stops appending and closes every file still open, whatever was written: for a task that failed, whose
     * files are thrown away. Does nothing after {@link #finish}.
     */
    @Override
    public void close() throws IOException {
        if (appender != null) {
            appender.abort();
            appender = null;
        }
        IOException failed = null;
        for (Open file : open.values()) {
            try {
                file.writer.close();
            } catch (IOException e) {
                failed = failed == null ? e : failed;
            }
        }
        open.clear();
        last = null;
        if (failed != null) {
            throw failed;
        }
    }

    private static final class Open {
        final DataFileWriter<Object> writer;
        final WrittenFile file;
        long records;

        Open(DataFileWriter<Object> writer, WrittenFile file) {
            this.writer = writer;
            this.file = file;
        }
    }
}
