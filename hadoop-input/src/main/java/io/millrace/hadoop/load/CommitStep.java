package io.millrace.hadoop.load;

/**
 * The steps of a load's commit, in order, each a point where a crash may happen. Before
 * {@link #COMMITTED} a crash leaves the previous state (the next load deletes this load's staging
 * directory); from it on, the next load completes this one by replaying its manifest.
 */
public enum CommitStep {
    /** The MapReduce job succeeded; its output is in the staging directory, invisible. */
    JOB_SUCCEEDED,
    /** The manifest is written in full in the staging directory, not yet in place. */
    MANIFEST_WRITTEN,
    /** The manifest was renamed into manifests/: the commit point. */
    COMMITTED,
    /** The first file moved into the data root (more to go). */
    FIRST_FILE_MOVED,
    /** Every file moved. */
    FILES_MOVED,
    /** The staging directory is deleted. */
    LOAD_DIR_DELETED,
    /** The summary is written: the load is complete. */
    SUMMARY_WRITTEN,
    /**
     * The audit topic acknowledged the load's audit records (window counts and lost ranges; at once with auditing
     * off), which are not yet marked as published: after a crash here the next load publishes them again, under
     * the same ids.
     */
    AUDIT_PUBLISHED
}
