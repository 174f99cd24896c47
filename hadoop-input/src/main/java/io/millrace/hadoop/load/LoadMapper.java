package io.millrace.hadoop.load;

import io.millrace.hadoop.LoadConfig;
import io.millrace.hadoop.input.LoaderCounter;
import io.millrace.hadoop.input.MillraceInputSplit;
import io.millrace.hadoop.input.MillraceKey;
import io.millrace.hadoop.input.MillraceValue;
import io.millrace.hadoop.input.LostRange;
import io.millrace.hadoop.input.MillraceRecordReader;
import io.millrace.hadoop.input.PartitionRange;
import io.millrace.hadoop.state.JsonFiles;
import io.millrace.hadoop.state.WindowCount;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.Mapper;
import org.apache.hadoop.mapreduce.TaskCounter;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The load's map task: writes each event, as the Avro binary it came in (checked, not decoded:
 * {@link io.millrace.hadoop.input.MillraceInputFormat#ENCODED_AVRO_KEY}), into the Avro file of its topic
 * and event hour ({@link HourlyFiles}) in the task attempt's work directory, counts it for the audit when
 * auditing is on ({@link TaskAudit}), and at the end adds its counts to the job's counters and writes a
 * {@link TaskReport}.
 * Everything it writes becomes part of the job's output only when the attempt commits; a failed or
 * killed attempt leaves nothing behind that the load would see. Emits no key-value pairs.
 */
public class LoadMapper extends Mapper<MillraceKey, MillraceValue, NullWritable, NullWritable> {

    /** The counter group of events written per topic. */
    public static final String TOPIC_COUNTER_GROUP = "Millrace events by topic";

    private static final Logger LOG = LoggerFactory.getLogger(LoadMapper.class);

    private static final int FRAMEWORK_READS_EVERY = 1024;

    private MillraceInputSplit split;
    private Path work;
    private FileSystem fs;
    private HourlyFiles files;
    private TaskAudit audit;   // null: auditing off
    // Events written per topic, added to the counters once at the end: looking a counter up by name per
    // event cost more than writing the event. A failed attempt's counts never reach the job's anyway.
    private final Map<String, long[]> writtenByTopic = new HashMap<>();
    private String lastTopic;
    private long[] lastWritten;

    @Override
    protected void setup(Context context) throws IOException, InterruptedException {
        split = (MillraceInputSplit) context.getInputSplit();
        work = FileOutputFormat.getWorkOutputPath(context);
        fs = work.getFileSystem(context.getConfiguration());
        LoadConfig config = LoadConfig.from(context.getConfiguration());
        files = new HourlyFiles(fs, work, config, namesByTopic(split.ranges()));
        audit = TaskAudit.of(config);
    }

    /** Each topic's file name stem: its first range in the split, and how many more of its ranges share the file. */
    static Map<String, String> namesByTopic(List<PartitionRange> ranges) {
        Map<String, PartitionRange> first = new LinkedHashMap<>();
        Map<String, Integer> count = new LinkedHashMap<>();
        for (PartitionRange range : ranges) {
            first.putIfAbsent(range.topic(), range);
            count.merge(range.topic(), 1, Integer::sum);
        }
        Map<String, String> names = new LinkedHashMap<>();
        first.forEach((topic, range) -> names.put(topic,
            range.name() + (count.get(topic) > 1 ? "+" + (count.get(topic) - 1) + "more" : "")));
        return names;
    }

    /** The task; a task that fails stops its file writing and closes its files (they are thrown away with it). */
    @Override
    public void run(Context context) throws IOException, InterruptedException {
        try {
            setup(context);
            try {
                MillraceRecordReader reader = MillraceRecordReader.openFor(context);
                if (reader == null) {
                    mapAll(context);
                } else {
                    mapAll(reader, context);
                }
            } finally {
                cleanup(context);
            }
        } finally {
            closeFiles();
        }
    }

    /** What {@link Mapper#run} does between setup and cleanup. */
    private void mapAll(Context context) throws IOException, InterruptedException {
        while (context.nextKeyValue()) {
            map(context.getCurrentKey(), context.getCurrentValue(), context);
        }
    }

    /**
     * Maps every record of {@code reader}, the one the framework reads through {@code context}. Hadoop's map
     * task wraps each InputFormat's reader in one that increments the synchronized {@code MAP_INPUT_RECORDS}
     * counter and publishes the task's progress around every record: with the load's small events, a fifth
     * of the map thread's time. So the mapper reads most records from the reader itself and lets the
     * framework read one in {@value #FRAMEWORK_READS_EVERY}, which keeps the progress moving, and adds the
     * records it read itself to {@code MAP_INPUT_RECORDS} at the end. Each record is read once either way.
     */
    private void mapAll(MillraceRecordReader reader, Context context) throws IOException, InterruptedException {
        long readDirectly = 0;
        try {
            for (long n = 1; ; n++) {
                boolean more;
                if (n % FRAMEWORK_READS_EVERY == 0) {
                    more = context.nextKeyValue();
                } else {
                    more = reader.nextKeyValue();
                    readDirectly += more ? 1 : 0;
                }
                if (!more) {
                    return;
                }
                map(reader.getCurrentKey(), reader.getCurrentValue(), context);
            }
        } finally {
            context.getCounter(TaskCounter.MAP_INPUT_RECORDS).increment(readDirectly);
        }
    }

    private void closeFiles() {
        if (files == null) {
            return;
        }
        try {
            files.close();
        } catch (IOException e) {
            LOG.warn("Closing the files of a failed task: {}", e.toString());
        }
    }

    @Override
    protected void map(MillraceKey key, MillraceValue value, Context context) throws IOException, InterruptedException {
        String topic = key.topic();
        long eventTime = value.eventTime();
        files.append(topic, eventTime, value.schemaId(), value.writerSchema(), value.avroBinary());
        if (audit != null) {
            audit.written(topic, eventTime, value.key(), value.value());
        }
        if (!topic.equals(lastTopic)) {
            lastWritten = writtenByTopic.computeIfAbsent(topic, t -> new long[1]);
            lastTopic = topic;
        }
        lastWritten[0]++;
    }

    @Override
    protected void cleanup(Context context) throws IOException {
        long events = 0;
        for (Map.Entry<String, long[]> topic : writtenByTopic.entrySet()) {
            context.getCounter(TOPIC_COUNTER_GROUP, topic.getKey()).increment(topic.getValue()[0]);
            events += topic.getValue()[0];
        }
        context.getCounter(LoaderCounter.EVENTS_WRITTEN).increment(events);
        List<WrittenFile> written = files.finish();
        context.getCounter(LoaderCounter.FILES_WRITTEN).increment(written.size());
        long undecodable = context.getCounter(LoaderCounter.UNDECODABLE_MESSAGES).getValue();
        TaskReport report = new TaskReport(split.name(), split.ranges(), written,
            context.getCounter(LoaderCounter.MESSAGES_READ).getValue(), undecodable,
            undecodable > 0 ? "errors/" + split.name() + ".errors.avro" : null,
            LostRange.decode(context.getConfiguration().get(MillraceRecordReader.TASK_LOST_RANGES)), auditCounts(context));
        JsonFiles.write(fs, new Path(new Path(work, TaskReport.DIRECTORY), split.name() + ".json"), report);
    }

    /** What the audit counted, the reader's undecodable messages included; null with auditing off. */
    private List<WindowCount> auditCounts(Context context) {
        if (audit == null) {
            return null;
        }
        audit.undecodable(MillraceRecordReader.undecodableByTopic(context.getConfiguration()));
        return audit.windows();
    }
}
