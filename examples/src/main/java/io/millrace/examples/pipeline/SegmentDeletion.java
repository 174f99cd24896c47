package io.millrace.examples.pipeline;

import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.server.Broker;
import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.TopicPartition;
import java.util.Map;

/**
 * Deletes the oldest segments of one live partition on the broker that holds it, as retention does: the
 * active segment is closed (rolled) first, then {@code retention.bytes=0} is applied to that log alone for
 * one retention pass, which removes every closed segment and moves the log start offset past them; the
 * topic's own settings are put back. The demo uses it to lose records the mirror has not copied yet.
 */
final class SegmentDeletion {

    /** Offsets {@code [from, to)} of {@code partition} deleted on broker {@code brokerId}. */
    record Deleted(TopicPartition partition, int brokerId, long from, long to) {
        long records() {
            return to - from;
        }
    }

    private final Log log;
    private final int brokerId;

    private SegmentDeletion(Log log, int brokerId) {
        this.log = log;
        this.brokerId = brokerId;
    }

    /** The log of {@code partition} in {@code dc}, on the broker that leads it (partitions have one replica). */
    static SegmentDeletion of(DataCentre dc, TopicPartition partition) {
        LocalCluster cluster = dc.cluster();
        for (int i = 0; i < cluster.brokerCount(); i++) {
            Broker broker = cluster.broker(i);
            var log = broker.logManager().getLog(partition.topic(), partition.partition());
            if (log.isPresent()) {
                return new SegmentDeletion(log.get(), broker.brokerId());
            }
        }
        throw new IllegalStateException("No broker of " + dc.name() + " holds " + partition);
    }

    /** Closes the active segment, so that the next records start a segment of their own; returns where it starts. */
    long roll() {
        log.roll();
        return log.logEndOffset();
    }

    long logEndOffset() {
        return log.logEndOffset();
    }

    /**
     * Rolls, then deletes every closed segment with one retention pass at {@code retention.bytes=0}.
     *
     * @param notCopiedFrom the first offset the mirror has not copied: what is deleted from there on is lost
     * @return the lost offsets, {@code notCopiedFrom} to the new log start
     */
    Deleted deleteClosedSegments(long notCopiedFrom) {
        roll();
        LogConfig topicConfig = log.config();
        log.updateConfig(topicConfig.withOverrides(Map.of(LogConfig.RETENTION_BYTES_CONFIG, "0")));
        try {
            log.deleteOldSegments();
        } finally {
            log.updateConfig(topicConfig);
        }
        if (log.logStartOffset() != log.logEndOffset()) {
            throw new IllegalStateException("Retention left " + log.topicPartition() + " starting at "
                + log.logStartOffset() + ", not at its end " + log.logEndOffset());
        }
        return new Deleted(log.topicPartition(), brokerId, notCopiedFrom, log.logStartOffset());
    }
}
