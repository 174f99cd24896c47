package io.millrace.hadoop.input.mapred;

import io.millrace.hadoop.input.MillraceInputFormat;
import io.millrace.hadoop.input.MillraceInputSplit;
import io.millrace.hadoop.input.MillraceKey;
import io.millrace.hadoop.input.MillraceRecordReader;
import io.millrace.hadoop.input.MillraceValue;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.mapred.InputFormat;
import org.apache.hadoop.mapred.InputSplit;
import org.apache.hadoop.mapred.JobConf;
import org.apache.hadoop.mapred.RecordReader;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptID;
import org.apache.hadoop.mapreduce.task.TaskAttemptContextImpl;

/**
 * {@link MillraceInputFormat} for the old {@code org.apache.hadoop.mapred} API (Hive, older jobs): the
 * same planning and the same record reader, adapted. {@code numSplits} is ignored: the split size is
 * {@code millrace.hadoop.max.split.records}.
 */
public final class MapredMillraceInputFormat implements InputFormat<MillraceKey, MillraceValue> {

    private final MillraceInputFormat format = new MillraceInputFormat();

    @Override
    public InputSplit[] getSplits(JobConf job, int numSplits) throws IOException {
        List<org.apache.hadoop.mapreduce.InputSplit> splits = format.getSplits(Job.getInstance(job));
        return splits.stream().map(s -> new MapredSplit((MillraceInputSplit) s)).toArray(InputSplit[]::new);
    }

    @Override
    public RecordReader<MillraceKey, MillraceValue> getRecordReader(InputSplit split, JobConf job, Reporter reporter)
        throws IOException {
        String attempt = job.get("mapreduce.task.attempt.id");
        TaskAttemptID id = attempt == null ? new TaskAttemptID() : TaskAttemptID.forName(attempt);
        MillraceRecordReader reader = new MillraceRecordReader();
        reader.initialize(((MapredSplit) split).split(), new TaskAttemptContextImpl(job, id, new ReporterStatus(reporter)));
        return new Adapter(reader);
    }

    /** The new-API reader behind the old API's next(key, value): the reader's own instances are copied over. */
    private record Adapter(MillraceRecordReader reader) implements RecordReader<MillraceKey, MillraceValue> {

        @Override
        public boolean next(MillraceKey key, MillraceValue value) throws IOException {
            if (!reader.nextKeyValue()) {
                return false;
            }
            MillraceKey current = reader.getCurrentKey();
            key.set(current.topic(), current.partition(), current.offset());
            value.copyFrom(reader.getCurrentValue());
            return true;
        }

        @Override
        public MillraceKey createKey() {
            return new MillraceKey();
        }

        @Override
        public MillraceValue createValue() {
            return new MillraceValue();
        }

        @Override
        public long getPos() {
            return 0;
        }

        @Override
        public void close() throws IOException {
            reader.close();
        }

        @Override
        public float getProgress() {
            return reader.getProgress();
        }
    }
}
