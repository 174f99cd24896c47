package io.millrace.hadoop.input.mapred;

import org.apache.hadoop.mapred.Counters;
import org.apache.hadoop.mapred.Reporter;
import org.apache.hadoop.mapreduce.Counter;
import org.apache.hadoop.mapreduce.StatusReporter;

/**
 * An old-API {@link Reporter} as the new API's {@link StatusReporter}, so the new-API record reader
 * counts into the old API's counters. A reporter without counters ({@link Reporter#NULL}) gets
 * counters of its own that nobody reads.
 */
final class ReporterStatus extends StatusReporter {

    private final Reporter reporter;
    private final Counters detached = new Counters();

    ReporterStatus(Reporter reporter) {
        this.reporter = reporter;
    }

    @Override
    public Counter getCounter(Enum<?> name) {
        Counter counter = reporter.getCounter(name);
        return counter != null ? counter : detached.findCounter(name);
    }

    @Override
    public Counter getCounter(String group, String name) {
        Counter counter = reporter.getCounter(group, name);
        return counter != null ? counter : detached.findCounter(group, name);
    }

    @Override
    public void progress() {
        reporter.progress();
    }

    @Override
    public float getProgress() {
        return reporter.getProgress();
    }

    @Override
    public void setStatus(String status) {
        reporter.setStatus(status);
    }
}
