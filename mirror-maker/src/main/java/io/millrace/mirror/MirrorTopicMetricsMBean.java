package io.millrace.mirror;

import java.util.Map;

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

    /** The four counts above per second, over roughly the last 30 s. */
    double getRecordsInPerSec();

    double getBytesInPerSec();

    double getRecordsOutPerSec();

    double getBytesOutPerSec();

    /** Mean of (acknowledgement time − the record's timestamp), ms: how far behind the live cluster the copy is. */
    double getLatencyAvgMs();

    long getLatencyMaxMs();

    /** Records copied again after a takeover (restart, rebalance) that the offline cluster already held. */
    long getDuplicates();

    /**
     * Per partition this process mirrors, the records its live log holds past what the mirror has
     * taken, as of the last fetch answer (Kafka's {@code records-lag}; -1 before the first answer).
     * Partitions another mirror process owns are not listed. A JMX table keyed by partition.
     */
    Map<Integer, Long> getRecordsLag();

    /** The largest of {@link #getRecordsLag()}, -1 when this process mirrors no partition of the topic: the one to alert on. */
    long getRecordsLagMax();
}
