package io.millrace.examples.pipeline;

import io.millrace.hadoop.input.MillraceKey;
import io.millrace.hadoop.input.MillraceValue;
import io.millrace.hadoop.load.LoadMapper;
import java.io.IOException;

/**
 * The load's mapper, except that the first map task fails halfway through its split: events it wrote are
 * in its attempt's work directory only. The LocalJobRunner does not retry a task, so the job fails, and
 * the load commits nothing (no files, no offsets, no audit counts); the demo's next load reads it all again.
 */
public class FailingLoadMapper extends LoadMapper {

    private long seen;

    @Override
    protected void map(MillraceKey key, MillraceValue value, Context context) throws IOException, InterruptedException {
        super.map(key, value, context);
        if (context.getTaskAttemptID().getTaskID().getId() == 0 && context.getTaskAttemptID().getId() == 0
                && ++seen >= Math.max(1, context.getInputSplit().getLength() / 2)) {
            throw new IOException("demo fault: map task 0 fails halfway through its split, after " + seen + " events");
        }
    }
}
