package io.millrace.hadoop.input;

import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.common.serialization.SerializationException;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.hadoop.LoadConfig;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroDeserializer;
import io.millrace.schemaregistry.serde.WireFormat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.InputSplit;
import org.apache.hadoop.mapreduce.RecordReader;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
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

    private final MillraceKey key = new MillraceKey();
    private final MillraceValue value = new MillraceValue();

    private List<PartitionRange> ranges = List.of();
    private long totalOffsets;
    private ClusterAccess cluster;
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
    private Iterator<ConsumerRecord<byte[], byte[]>> records = Collections.emptyIterator();
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
    }

    @Override
    public boolean nextKeyValue() throws IOException {
        while (true) {
            if (!hasNextInRange()) {
                if (!openNextRange()) {
                    countRead();
                    return false;
                }
                continue;
            }
            ConsumerRecord<byte[], byte[]> record = records.next();
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
    private boolean hasNextInRange() {
        try {
            return records.hasNext();
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
            records = resume >= range.end() ? Collections.emptyIterator()
                : cluster.reader().read(range.topicPartition(), resume, range.end());
            return hasNextInRange();
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
            return false;
        }
        range = ranges.get(rangeIndex);
        position = range.start();
        records = range.size() == 0 ? Collections.emptyIterator()
            : cluster.reader().read(range.topicPartition(), range.start(), range.end());
        return true;
    }

    /** Sets the key and value from {@code record}; false when its value is undecodable (it went to the error output). */
    private boolean fill(ConsumerRecord<byte[], byte[]> record) throws IOException {
        key.set(record.topic(), record.partition(), record.offset());
        value.set(record.timestamp(), record.key(), record.value());
        if (decoder == null && scanner == null) {
            return true;
        }
        try {
            if (record.value() == null) {
                throw new SerializationException("The message has no value (null), so no event to decode");
            }
            if (scanner != null) {
                scanner.scan(record.topic(), record.value(), value);
            } else {
                value.decoded(decoder.deserialize(record.topic(), record.value()), WireFormat.schemaId(record.topic(), record.value()));
            }
            return true;
        } catch (RuntimeException e) {
            errors.write(record.topic(), record.partition(), record.offset(), record.timestamp(), record.key(), record.value(), e);
            undecodable.increment(1);
            undecodableByTopic.merge(record.topic(), 1L, Long::sum);
            taskConf.set(TASK_UNDECODABLE, encode(undecodableByTopic));
            return false;
        }
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
