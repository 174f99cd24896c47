package io.millrace.mirror;

/** The whole mirror, exported as {@code io.millrace:type=mirror-metrics}. */
public interface MirrorMetricsMBean {

    long getRecordsIn();

    long getRecordsOut();

    /** Commits of live offsets, each after a flush. */
    long getCommits();

    /** Records copied again after a takeover (restart, rebalance) that the offline cluster already held. */
    long getDuplicates();

    /** Live records retention deleted before they were mirrored. */
    long getLostRecords();

    /** Schema ids copied into the offline registry. */
    long getSchemasCopied();
}
