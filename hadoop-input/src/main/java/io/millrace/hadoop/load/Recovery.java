package io.millrace.hadoop.load;

import io.millrace.hadoop.state.LoadSummary;
import io.millrace.hadoop.state.StateDir;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What every load does first: completes the committed loads that a crash interrupted (a manifest but no
 * summary: their moves are replayed), then deletes the staging directories left over, which belong to
 * loads that never reached their commit point: garbage from a failed or killed job or driver; last, with
 * auditing on, publishes the audit records of committed loads not yet published. After it, the data root
 * holds exactly what the newest manifest says, and the next load starts from its offsets.
 */
final class Recovery {

    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    private final StateDir state;
    private final LoadCompletion completion;
    private final LoadAudit audit;

    Recovery(StateDir state, CommitHook hook, LoadAudit audit) {
        this.state = state;
        this.completion = new LoadCompletion(state, hook, audit);
        this.audit = audit;
    }

    /** Recovers; returns the summaries of the committed loads it completed, oldest first. */
    List<LoadSummary> run() throws IOException {
        List<LoadSummary> completed = new ArrayList<>();
        for (long sequence : state.pending()) {
            LOG.warn("Load {} committed but did not complete (crashed after its commit point): completing it", sequence);
            completed.add(completion.complete(state.read(sequence)));
        }
        for (Path dir : state.loadDirs()) {
            LOG.warn("Deleting {}: the staging directory of a load that never committed", dir);
            state.fs().delete(dir, true);
        }
        audit.catchUp();
        return completed;
    }
}
