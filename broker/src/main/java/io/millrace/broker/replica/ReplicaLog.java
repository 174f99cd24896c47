package io.millrace.broker.replica;

import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogAppendInfo;
import java.nio.ByteBuffer;

/**
 * The log operations replication needs, in one place: appends that keep the leader's offsets and
 * epochs, truncation, the leader epoch cache and the high watermark the log checkpoints.
 */
public final class ReplicaLog {

    private ReplicaLog() {
    }

    /** The latest epoch in the log's epoch cache, or -1 when it has none. */
    static int latestEpoch(Log log) {
        return log.latestEpoch();
    }

    /** The end offset of {@code epoch} in this log (Kafka's definition), or -1 when the log has no such epoch. */
    static long endOffsetForEpoch(Log log, int epoch) {
        return log.endOffsetForEpoch(epoch).endOffset();
    }

    /** Appends a producer's batches, stamped with the leader's {@code epoch}. */
    public static LogAppendInfo appendAsLeader(Log log, ByteBuffer records, int epoch) {
        return log.appendAsLeader(records, epoch);
    }

    /** The topic's min.insync.replicas. */
    public static int minInsyncReplicas(Log log) {
        return log.config().minInSyncReplicas();
    }

    static void append(Log log, ByteBuffer batches) {
        log.appendAsFollower(batches);
    }

    static void truncateFullyAndStartAt(Log log, long offset) {
        log.truncateFullyAndStartAt(offset);
    }

    static void truncateTo(Log log, long offset) {
        log.truncateTo(offset);
    }

    /** Whether the log's HW follows its end (one replica) or moves only when replication says (several). */
    static void highWatermarkFollowsLogEnd(Log log, boolean follows) {
        log.setHighWatermarkFollowsLogEnd(follows);
    }

    static void updateHighWatermark(Log log, long highWatermark) {
        log.updateHighWatermark(highWatermark);
    }

    static long highWatermark(Log log) {
        return log.highWatermark();
    }

    /** Records that {@code epoch} starts at {@code offset}: this broker just became its leader. */
    static void startEpoch(Log log, int epoch, long offset) {
        log.assignEpochStartOffset(epoch, offset);
    }
}
