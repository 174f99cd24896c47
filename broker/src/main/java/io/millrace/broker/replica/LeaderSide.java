package io.millrace.broker.replica;

import io.millrace.broker.log.FileSlice;
import io.millrace.broker.log.HighWatermarkReads;
import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogAppendInfo;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.record.EndTransactionMarker;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntFunction;

/**
 * What the Produce and Fetch handlers do with a replicated partition this broker leads: appends
 * checked against min.insync.replicas and stamped with the leader epoch, acks=all waiting for the
 * high watermark, followers' fetches recorded, consumers' reads cut at the high watermark.
 */
public final class LeaderSide {

    /** An append's result; {@code replicated} is null unless acks=all must wait for the ISR. */
    public record Append(LogAppendInfo info, CompletableFuture<Void> replicated) {
    }

    /** A read's result: the records and the high watermark to answer with. */
    public record Read(FileSlice slice, long highWatermark) {
    }

    private final ReplicaManager replicas;

    LeaderSide(ReplicaManager replicas) {
        this.replicas = replicas;
    }

    /**
     * Appends a producer's records. With acks=all, an ISR smaller than min.insync.replicas refuses
     * the append (NOT_ENOUGH_REPLICAS, nothing appended) and the result waits for the HW to pass it.
     */
    public Append append(Partition partition, Log log, ByteBuffer records, short acks, long timeoutMs) {
        return appendWith(partition, log, acks, timeoutMs, epoch -> ReplicaLog.appendAsLeader(log, records, epoch));
    }

    /**
     * Appends a group coordinator's batch of a transactional producer's offsets
     * ({@link Log#appendFromCoordinator}), as {@link #append} with acks=all.
     */
    public Append appendFromCoordinator(Partition partition, Log log, ByteBuffer records, long timeoutMs) {
        return appendWith(partition, log, (short) -1, timeoutMs, epoch -> log.appendFromCoordinator(records, epoch));
    }

    /**
     * Appends a transaction coordinator's marker ending {@code producerId}'s transaction, as
     * {@link #append} with acks=all: the result waits until every in-sync replica has it.
     */
    public Append appendMarker(Partition partition, Log log, long producerId, short producerEpoch,
                               EndTransactionMarker marker, long timeoutMs) {
        return appendWith(partition, log, (short) -1, timeoutMs,
            epoch -> log.appendMarker(producerId, producerEpoch, marker, epoch));
    }

    private Append appendWith(Partition partition, Log log, short acks, long timeoutMs, IntFunction<LogAppendInfo> write) {
        int minIsr = ReplicaLog.minInsyncReplicas(log);
        int epoch = partition.leaderEpoch();
        Errors refusal = partition.checkAppend(acks == -1 ? minIsr : 0);
        if (refusal != Errors.NONE) {
            throw new ApiException(refusal, refusal == Errors.NOT_ENOUGH_REPLICAS
                ? "The in-sync replicas " + partition.isr() + " are fewer than min.insync.replicas=" + minIsr
                : "This broker no longer leads " + partition.topicPartition());
        }
        LogAppendInfo info = write.apply(epoch);
        replicas.onLeaderAppend(partition, log);
        CompletableFuture<Void> replicated = acks == -1
            ? replicas.awaitReplication(partition, epoch, info.lastOffset() + 1, minIsr, timeoutMs)
            : null;
        return new Append(info, replicated);
    }

    /**
     * Reads for a follower ({@code replicaId} >= 0: its fetch offset is its log end offset, recorded)
     * or a consumer (only below the HW). A {@code currentLeaderEpoch} other than this leader's is
     * refused as Kafka does: older FENCED_LEADER_EPOCH, newer UNKNOWN_LEADER_EPOCH.
     */
    public Read read(Partition partition, Log log, int replicaId, int currentLeaderEpoch, long fetchOffset, int maxBytes,
                     boolean minOneBatch) {
        checkEpoch(partition, currentLeaderEpoch);
        if (replicaId >= 0) {
            FileSlice slice = log.read(fetchOffset, maxBytes, minOneBatch);
            replicas.recordFollowerFetch(partition, log, replicaId, fetchOffset);
            return new Read(slice, partition.highWatermark());
        }
        long highWatermark = partition.highWatermark();
        FileSlice slice = log.read(fetchOffset, maxBytes, minOneBatch);
        boolean pastHighWatermark = log.logEndOffset() > highWatermark;
        return new Read(pastHighWatermark ? HighWatermarkReads.below(slice, highWatermark) : slice, highWatermark);
    }

    private static void checkEpoch(Partition partition, int currentLeaderEpoch) {
        if (!partition.isLeader()) {
            throw new ApiException(Errors.NOT_LEADER_OR_FOLLOWER, "This broker does not lead " + partition.topicPartition());
        }
        int epoch = partition.leaderEpoch();
        if (currentLeaderEpoch >= 0 && currentLeaderEpoch < epoch) {
            throw new ApiException(Errors.FENCED_LEADER_EPOCH, "Leader epoch " + currentLeaderEpoch + " is older than "
                + epoch);
        }
        if (currentLeaderEpoch > epoch) {
            throw new ApiException(Errors.UNKNOWN_LEADER_EPOCH, "Leader epoch " + currentLeaderEpoch + " is newer than "
                + epoch);
        }
    }
}
