package io.millrace.hadoop.input;

import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.common.serialization.SerializationException;
import io.millrace.consumer.RecordView;
import io.millrace.consumer.RecordViews;
import io.millrace.hadoop.LoadConfig;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import io.millrace.schemaregistry.serde.WireFormat;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the ranges of one {@link MillraceInputSplit}, one after the other, with a
 * {@link io.millrace.consumer.PartitionReader}: exactly the offsets the split names, whatever the
 * brokers hold beyond them, so every attempt of the task reads the same messages. With the avro value
 * format each value is decoded with its writer's schema from the registry (cached by id), or only
 * checked against it ({@link MillraceInputFormat#ENCODED_AVRO_KEY}); a value that cannot be decoded goes
 * to the {@link ErrorOutput} and is counted, and the reader moves on.
 * Progress is the fraction of the split's offsets passed. Not thread-safe.
 */
public final class MillraceRecordReader extends RecordReader<MillraceKey, MillraceValue> {

    private static final Logger LOG = LoggerFactory.getLogger(MillraceRecordReader.class);

    /**
     * Where the reader leaves, in the task's configuration, the ranges retention deleted while the task
     * ran ({@link LostRange#encode}), for the mapper's task report.
     */
    public static final String TASK_LOST_RANGES = "millrace.hadoop.task.lost.ranges";

    /**
     * Where the reader leaves, in the task's configuration, how many messages of each topic it could not
     * decode ({@code topic/count;...}), so that the mapper can count them for the audit.
     */
    public static final String TASK_UNDECODABLE = "millrace.hadoop.task.undecodable";

    private static final int COUNT_EVERY = 4096;

    /** The readers initialized in this JVM and not yet closed, by the task attempt they read for. */
    private static final Map<TaskAttemptID, MillraceRecordReader> OPEN = new ConcurrentHashMap<>();

    private final MillraceKey key = new MillraceKey();
    private final MillraceValue value = new MillraceValue();

    private List<PartitionRange> ranges = List.of();
    private long totalOffsets;
    private ClusterAccess cluster;
    private TaskAttemptID attempt;
    private AvroDeserializer<GenericRecord> decoder;
    private EventScanner scanner;
    private ErrorOutput errors;
    private Counter messagesRead;
    // Messages read but not yet added to messagesRead: a counter's increment is synchronized, which cost as
    // much per message as checking the message. Added every COUNT_EVERY messages and when the split ends,
    // before the mapper's cleanup reads the counter.
    private int uncounted;
    private Counter undecodable;
    private Counter lostOffsets;
    private Configuration taskConf;
    private final List<LostRange> lostWhileReading = new ArrayList<>();
    private final Map<String, Long> undecodableByTopic = new TreeMap<>();

    private int rangeIndex = -1;
    private PartitionRange range;
    private RecordViews records;   // null when the range is empty or done
    private long offsetsDone;
    private long position;

    @Override
    public void initialize(InputSplit split, TaskAttemptContext context) throws IOException {
        MillraceInputSplit millraceSplit = (MillraceInputSplit) split;
        ranges = millraceSplit.ranges();
        totalOffsets = millraceSplit.getLength();
        LoadConfig config = LoadConfig.from(context.getConfiguration());
        if (config.decodeAvro()) {
            config.schemaRegistryUrl();
            SchemaRegistryClient registry = new SchemaRegistryClient(config.originals());
            if (context.getConfiguration().getBoolean(MillraceInputFormat.ENCODED_AVRO_KEY, false)) {
                scanner = new EventScanner(registry);
            } else {
                decoder = new AvroDeserializer<>(registry);
            }
        }
        errors = ErrorOutput.forTask(context, millraceSplit.name());
        cluster = new ClusterAccess(config);
        messagesRead = context.getCounter(LoaderCounter.MESSAGES_READ);
        undecodable = context.getCounter(LoaderCounter.UNDECODABLE_MESSAGES);
        lostOffsets = context.getCounter(LoaderCounter.LOST_OFFSETS);
        ranges.forEach(r -> lostOffsets.increment(r.lost()));
        taskConf = context.getConfiguration();
        taskConf.set(TASK_LOST_RANGES, "");
        taskConf.set(TASK_UNDECODABLE, "");
        attempt = context.getTaskAttemptID();
        if (attempt != null) {
            OPEN.put(attempt, this);
        }
    }

    /**
     * The reader the framework initialized for the task attempt of {@code context} in this JVM, or null.
     * A mapper may read from it directly, past the framework's per-record wrapper, as long as it reads
     * each record once, one way or the other ({@code LoadMapper} does).
     */
    public static MillraceRecordReader openFor(TaskAttemptContext context) {
        TaskAttemptID id = context.getTaskAttemptID();
        return id == null ? null : OPEN.get(id);
    }

    @Override
    public boolean nextKeyValue() throws IOException {
        while (true) {
            if (!advanceInRange()) {
                if (!openNextRange()) {
                    countRead();
                    return false;
                }
                continue;
            }
            RecordView record = records.current();
            position = record.offset() + 1;
            if (++uncounted == COUNT_EVERY) {
                countRead();
            }
            if (fill(record)) {
                return true;
            }
        }
    }

    private void countRead() {
        messagesRead.increment(uncounted);
        uncounted = 0;
    }

    /**
     * Whether the range has a record left. Retention may delete offsets while the task runs (a loader
     * that fell behind): what it deleted is recorded as lost, as planning does, and the range goes on
     * from the earliest offset left, rather than failing every load from here on.
     */
    private boolean advanceInRange() {
        if (records == null) {
            return false;
        }
        try {
            return records.advance();
        } catch (OffsetOutOfRangeException e) {
            long earliest = cluster.reader().earliestOffset(range.topicPartition());
            if (earliest <= position) {
                throw e;
            }
            long resume = Math.min(earliest, range.end());
            LostRange lost = new LostRange(range.topic(), range.partition(), position, resume);
            LOG.warn("Retention deleted offsets [{}, {}) of {} while this task read them: {} messages lost; going on",
                position, resume, range.topicPartition(), lost.count());
            lostWhileReading.add(lost);
            lostOffsets.increment(lost.count());
            taskConf.set(TASK_LOST_RANGES, LostRange.encode(lostWhileReading));
            position = resume;
            records = resume >= range.end() ? null : cluster.reader().readViews(range.topicPartition(), resume, range.end());
            return advanceInRange();
        }
    }

    /** Moves to the next range; false when the split is done. */
    private boolean openNextRange() {
        if (range != null) {
            offsetsDone += range.size();
        }
        rangeIndex++;
        if (rangeIndex >= ranges.size()) {
            range = null;
            records = null;
            return false;
        }
        range = ranges.get(rangeIndex);
        position = range.start();
        records = range.size() == 0 ? null : cluster.reader().readViews(range.topicPartition(), range.start(), range.end());
        return true;
    }

    /**
     * Sets the key and value from {@code record}, their bytes copied out of the fetched response (the
     * value may outlive the view: the load hands it to its appender thread); false when the value is
     * undecodable (it went to the error output).
     */
    private boolean fill(RecordView record) throws IOException {
        String topic = range.topic();
        long offset = record.offset();
        byte[] keyBytes = copy(record.buffer(), record.keyPosition(), record.keyLength());
        byte[] valueBytes = copy(record.buffer(), record.valuePosition(), record.valueLength());
        key.set(topic, range.partition(), offset);
        value.set(record.timestamp(), keyBytes, valueBytes);
        if (decoder == null && scanner == null) {
            return true;
        }
        try {
            if (valueBytes == null) {
                throw new SerializationException("The message has no value (null), so no event to decode");
            }
            if (scanner != null) {
                scanner.scan(topic, valueBytes, value);
            } else {
                value.decoded(decoder.deserialize(topic, valueBytes), WireFormat.schemaId(topic, valueBytes));
            }
            return true;
        } catch (RuntimeException e) {
            errors.write(topic, range.partition(), offset, record.timestamp(), keyBytes, valueBytes, e);
            undecodable.increment(1);
            undecodableByTopic.merge(topic, 1L, Long::sum);
            taskConf.set(TASK_UNDECODABLE, encode(undecodableByTopic));
            return false;
        }
    }

    private static byte[] copy(ByteBuffer from, int position, int length) {
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        from.get(position, bytes);
        return bytes;
    }

    /** {@code topic/count;...}: topic names hold neither '/' nor ';'. */
    private static String encode(Map<String, Long> counts) {
        StringBuilder out = new StringBuilder();
        counts.forEach((topic, count) -> out.append(out.length() == 0 ? "" : ";").append(topic).append('/').append(count));
        return out.toString();
    }

    /** The undecodable messages per topic the reader of this task has met so far ({@link #TASK_UNDECODABLE}). */
    public static Map<String, Long> undecodableByTopic(Configuration taskConf) {
        Map<String, Long> counts = new TreeMap<>();
        String encoded = taskConf.get(TASK_UNDECODABLE, "");
        if (!encoded.isEmpty()) {
            for (String one : encoded.split(";")) {
                int slash = one.lastIndexOf('/');
                counts.put(one.substring(0, slash), Long.parseLong(one.substring(slash + 1)));
            }
        }
        return counts;
    }

    @Override
    public MillraceKey getCurrentKey() {
        return key;
    }

    @Override
    public MillraceValue getCurrentValue() {
        return value;
    }

    @Override
    public float getProgress() {
        if (totalOffsets == 0) {
            return range == null && rangeIndex >= 0 ? 1f : 0f;
        }
        long inRange = range == null ? 0 : position - range.start();
        return Math.min(1f, (offsetsDone + inRange) / (float) totalOffsets);
    }

    @Override
    public void close() throws IOException {
        if (attempt != null) {
            OPEN.remove(attempt, this);
        }
        try {
            if (errors != null) {
                errors.close();
            }
        } finally {
            if (cluster != null) {
                cluster.close();
            }
        }
    }
}
