package io.millrace.hadoop.input;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.OutputCommitter;
import org.apache.hadoop.mapreduce.OutputFormat;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter;
import org.apache.hadoop.util.ReflectionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where undecodable messages go: an Avro file {@code errors/<split>.errors.avro} in the task's work
 * directory, so it is committed with the task's output, or discarded with a failed attempt. Each
 * entry has the message's coordinates, timestamp, key and value bytes as they were, and the error.
 * A job whose output format does not write files has no work directory: its undecodable messages are
 * only logged and counted (they are still in the broker). The file is opened on the first error.
 * Not thread-safe.
 */
public final class ErrorOutput implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ErrorOutput.class);

    public static final Schema SCHEMA = SchemaBuilder.record("UndecodableMessage").namespace("io.millrace.hadoop")
        .doc("A message the loader could not decode, as it was in the broker")
        .fields()
        .requiredString("topic").requiredInt("partition").requiredLong("offset").requiredLong("timestamp")
        .optionalBytes("key").optionalBytes("value").requiredString("error")
        .endRecord();

    private final FileSystem fs;
    private final Path file;
    private DataFileWriter<GenericRecord> writer;

    private ErrorOutput(FileSystem fs, Path file) {
        this.fs = fs;
        this.file = file;
    }

    /** The error output of the task {@code context} runs, for the split named {@code splitName}. */
    public static ErrorOutput forTask(TaskAttemptContext context, String splitName) throws IOException {
        Path work = workPath(context);
        if (work == null) {
            return new ErrorOutput(null, null);
        }
        Path file = new Path(new Path(work, "errors"), splitName + ".errors.avro");
        return new ErrorOutput(file.getFileSystem(context.getConfiguration()), file);
    }

    private static Path workPath(TaskAttemptContext context) throws IOException {
        try {
            OutputFormat<?, ?> format = ReflectionUtils.newInstance(context.getOutputFormatClass(), context.getConfiguration());
            OutputCommitter committer = format.getOutputCommitter(context);
            return committer instanceof FileOutputCommitter files ? files.getWorkPath() : null;
        } catch (ClassNotFoundException | InterruptedException | RuntimeException e) {
            LOG.warn("No work directory for the error output ({}): undecodable messages are only logged", e.toString());
            return null;
        }
    }

    /** Records one undecodable message. */
    public void write(String topic, int partition, long offset, long timestamp, byte[] key, byte[] value, Throwable error)
        throws IOException {
        LOG.warn("Undecodable message {}-{}@{}: {}", topic, partition, offset, error.toString());
        if (file == null) {
            return;
        }
        GenericRecord entry = new GenericData.Record(SCHEMA);
        entry.put("topic", topic);
        entry.put("partition", partition);
        entry.put("offset", offset);
        entry.put("timestamp", timestamp);
        entry.put("key", key == null ? null : ByteBuffer.wrap(key));
        entry.put("value", value == null ? null : ByteBuffer.wrap(value));
        entry.put("error", String.valueOf(error));
        writer().append(entry);
    }

    private DataFileWriter<GenericRecord> writer() throws IOException {
        if (writer == null) {
            writer = new DataFileWriter<>(new GenericDatumWriter<GenericRecord>(SCHEMA));
            writer.create(SCHEMA, fs.create(file, true));
        }
        return writer;
    }

    @Override
    public void close() throws IOException {
        if (writer != null) {
            writer.close();
            writer = null;
        }
    }
}
