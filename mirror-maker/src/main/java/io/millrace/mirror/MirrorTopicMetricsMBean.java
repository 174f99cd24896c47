package io.millrace.mirror;

/**
 * What the mirror copied of one topic of one live cluster, exported as
 * {@code io.millrace:type=mirror-topic-metrics,cluster=<name>,topic=<topic>}.
 */
public interface MirrorTopicMetricsMBean {

    /** Records read from the live cluster. */
    long getRecordsIn();

    /** Key and value bytes read from the live cluster. */
    long getBytesIn();

    /** Records the offline cluster acknowledged. */
    long getRecordsOut();

    long getBytesOut();

    /** Mean of (acknowledgement time − the record's timestamp), ms: how far behind the live cluster the copy is. */
    double getLatencyAvgMs();

    long getLatencyMaxMs();
}
