package io.millrace.hadoop.load;

import io.millrace.hadoop.state.FileMove;
import io.millrace.hadoop.state.JsonFiles;
import io.millrace.hadoop.state.LoadSummary;
import io.millrace.hadoop.state.Manifest;
import io.millrace.hadoop.state.StateDir;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completes a committed load: moves its files where the manifest says, deletes its staging directory,
 * writes its summary, the mark of a complete load, and with auditing on publishes its audit counts
 * ({@link LoadAudit}). Every step may be done again after a crash: a move whose source is gone and whose
 * destination is there is done; deleting a missing directory is a no-op; the summary is written whole or
 * not at all; the audit records published again have the same ids. So the driver and, after a crash, the
 * next load's recovery run the same code.
 */
final class LoadCompletion {

    private static final Logger LOG = LoggerFactory.getLogger(LoadCompletion.class);

    private final StateDir state;
    private final CommitHook hook;
    private final LoadAudit audit;

    LoadCompletion(StateDir state, CommitHook hook, LoadAudit audit) {
        this.state = state;
        this.hook = hook;
        this.audit = audit;
    }

    LoadSummary complete(Manifest manifest) throws IOException {
        FileSystem fs = state.fs();
        List<FileMove> moves = manifest.files();
        for (int i = 0; i < moves.size(); i++) {
            move(fs, new Path(moves.get(i).source()), new Path(moves.get(i).destination()));
            if (i == 0) {
                hook.reached(CommitStep.FIRST_FILE_MOVED);
            }
        }
        hook.reached(CommitStep.FILES_MOVED);
        fs.delete(state.loadDir(manifest.runId()), true);
        hook.reached(CommitStep.LOAD_DIR_DELETED);
        LoadSummary summary = LoadSummary.of(manifest, System.currentTimeMillis(),
            state.errors(manifest.sequence()).toString());
        JsonFiles.writeAtomically(fs, state.summary(manifest.sequence()), summary);
        hook.reached(CommitStep.SUMMARY_WRITTEN);
        LOG.info("Load {} ({}) complete: {} events in {} files, {} undecodable, {} lost to retention", manifest.sequence(),
            manifest.runId(), manifest.records(), moves.size(), manifest.errors(), summary.lostMessages());
        audit.completed(manifest);
        return summary;
    }

    /** Moves {@code source} to {@code destination} unless that was done already; never overwrites. */
    static void move(FileSystem fs, Path source, Path destination) throws IOException {
        boolean sourceThere = fs.exists(source);
        boolean destinationThere = fs.exists(destination);
        if (!sourceThere && destinationThere) {
            return;
        }
        if (!sourceThere) {
            throw new IOException("Neither " + source + " nor " + destination + " exists: a committed file is missing. "
                + "Was the staging directory or the data root changed by hand?");
        }
        if (destinationThere) {
            throw new IOException("Both " + source + " and " + destination + " exist; refusing to overwrite. A file of this "
                + "name can only come from this load: was the data root restored or copied by hand?");
        }
        fs.mkdirs(destination.getParent());
        if (!fs.rename(source, destination) && !(fs.exists(destination) && !fs.exists(source))) {
            throw new IOException("Could not move " + source + " to " + destination);
        }
    }
}
