package io.millrace.hadoop.load;

import io.millrace.hadoop.state.Manifest;
import java.io.IOException;

/**
 * A load that passed its commit point and then failed to complete (moving its files, deleting its
 * staging directory, writing its summary). Its data and offsets are committed: the next load
 * completes it from the manifest before it loads anything new, so running the load again is the repair.
 */
public class LoadIncompleteException extends IOException {

    private final long sequence;
    private final long records;
    private final int partitions;

    public LoadIncompleteException(Manifest manifest, Throwable cause) {
        super("Load " + manifest.sequence() + " is committed (" + manifest.records() + " events, offsets of "
            + manifest.offsets().size() + " partitions), but completing it failed: " + cause
            + ". The next load completes it before loading anything new.", cause);
        this.sequence = manifest.sequence();
        this.records = manifest.records();
        this.partitions = manifest.offsets().size();
    }

    /** The committed load's sequence number. */
    public long sequence() {
        return sequence;
    }

    /** How many events the committed load holds. */
    public long records() {
        return records;
    }

    /** How many partitions' offsets the committed load moved. */
    public int partitions() {
        return partitions;
    }
}
