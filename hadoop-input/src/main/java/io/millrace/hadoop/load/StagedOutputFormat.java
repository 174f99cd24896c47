package io.millrace.hadoop.load;

import org.apache.hadoop.io.NullWritable;
import org.apache.hadoop.mapreduce.RecordWriter;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;

/**
 * The load job's output format: there for its {@link org.apache.hadoop.mapreduce.lib.output.FileOutputCommitter},
 * which keeps each task attempt's files apart until the attempt commits and publishes them in the
 * load's staging directory only when the job succeeds. The files themselves are written by
 * {@link LoadMapper} straight into the attempt's work directory, because one task writes many files
 * (topic, hour, schema) that a single record writer could not name.
 */
public final class StagedOutputFormat extends FileOutputFormat<NullWritable, NullWritable> {

    @Override
    public RecordWriter<NullWritable, NullWritable> getRecordWriter(TaskAttemptContext context) {
        return new RecordWriter<>() {
            @Override
            public void write(NullWritable key, NullWritable value) {
                throw new UnsupportedOperationException("The load mapper writes its files itself; it emits no pairs");
            }

            @Override
            public void close(TaskAttemptContext ignored) {
            }
        };
    }
}
