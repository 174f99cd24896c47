package io.millrace.broker.log;

import io.millrace.broker.log.LogValidator.Run;
import io.millrace.common.record.EndTransactionMarker;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.TimestampType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write path of a {@link Log}: a leader's appends (validated, given offsets, stamped with the
 * leader epoch and checked against the idempotent producers' state), a follower's (the leader's
 * batches as they are, after the same checks of their bytes), and rolling to a new segment. The
 * entry points take the log's append lock; everything else runs under it.
 */
final class LogAppends {

    private static final Logger LOG = LoggerFactory.getLogger(LogAppends.class);

    private final Log log;

    LogAppends(Log log) {
        this.log = log;
    }

    /**
     * {@link Log#append} ({@code latestEpoch} true: the batches get the log's latest leader epoch,
     * none while it has none) and {@link Log#appendAsLeader} (they get {@code leaderEpoch}).
     */
    LogAppendInfo appendAsLeader(ByteBuffer records, int leaderEpoch, boolean latestEpoch) {
        return appendAsLeader(records, leaderEpoch, latestEpoch, false);
    }

    /** As above; {@code fromCoordinator} for {@link Log#appendFromCoordinator}. */
    LogAppendInfo appendAsLeader(ByteBuffer records, int leaderEpoch, boolean latestEpoch, boolean fromCoordinator) {
        log.health().ensureUsable();
        LogConfig config = log.config();
        LogValidator.validate(records, config, log.context().time().milliseconds());
        ReentrantLock lock = log.appendLock();
        lock.lock();
        try {
            log.health().ensureUsable();
            long now = log.context().time().milliseconds();
            int epoch = latestEpoch ? log.leaderEpochCache().latestEpoch() : startEpoch(leaderEpoch);
            LogValidator.stampLeaderEpoch(records, epoch);
            ProducerStateManager producers = log.producerState();
            var producerAppend = producers.prepareLeaderAppend(records, log.end().offset(), now, config.timestampType(),
                log.logStartOffset() == 0, fromCoordinator);
            if (producerAppend.isDuplicate()) {
                return producerAppend.duplicateInfo();
            }
            LogAppendInfo info = LogValidator.assignOffsets(records, log.end().offset(), now, config.timestampType());
            write(records, info, config, now);
            producers.complete(producerAppend);
            return info;
        } catch (IOException e) {
            throw log.health().offline("append to", e);
        } finally {
            lock.unlock();
        }
    }

    /** {@link Log#appendMarker}. */
    LogAppendInfo appendMarker(long producerId, short producerEpoch, EndTransactionMarker marker, int leaderEpoch) {
        log.health().ensureUsable();
        LogConfig config = log.config();
        ReentrantLock lock = log.appendLock();
        lock.lock();
        try {
            log.health().ensureUsable();
            ProducerStateManager producers = log.producerState();
            producers.checkMarker(producerId, producerEpoch, marker);
            long now = log.context().time().milliseconds();
            ByteBuffer records = marker.toBatch(producerId, producerEpoch, now, startEpoch(leaderEpoch));
            LogAppendInfo info = LogValidator.assignOffsets(records, log.end().offset(), now, config.timestampType());
            write(records, info, config, now);
            producers.onReplicatedRecords(records, now);
            return info;
        } catch (IOException e) {
            throw log.health().offline("append to", e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@link Log#appendMayWait}: under the append lock if it is free, whether a leader append of
     * {@code records} would roll. The last offset is over-estimated (every record takes more than
     * a byte), which can only answer "may wait" too early, by the offset rule alone.
     */
    boolean mayWait(ByteBuffer records) {
        ReentrantLock lock = log.appendLock();
        if (!lock.tryLock()) {
            return true;
        }
        try {
            LogConfig config = log.config();
            LogEnd end = log.end();
            long now = log.context().time().milliseconds();
            long maxTimestamp = config.timestampType() == TimestampType.LOG_APPEND_TIME ? now : maxTimestamp(records);
            return end.segment().shouldRoll(records.remaining(), maxTimestamp, end.offset() + records.remaining(), now,
                config);
        } catch (IOException e) {
            return true; // the append finds out what is wrong, on a thread that may wait
        } finally {
            lock.unlock();
        }
    }

    /** The batches' largest MaxTimestamp, read from their headers; stops at a damaged one, which the append refuses. */
    private static long maxTimestamp(ByteBuffer records) {
        long max = RecordBatch.NO_TIMESTAMP;
        RecordBatch batch = RecordBatch.wrap(records, records.position());
        for (int at = records.position(); records.limit() - at >= RecordBatch.HEADER_SIZE; at += batch.sizeInBytes()) {
            batch.reset(records, at);
            int length = batch.batchLength();
            if (length < RecordBatch.MIN_LENGTH || length > records.limit() - at - RecordBatch.LOG_OVERHEAD) {
                break;
            }
            max = Math.max(max, batch.maxTimestamp());
        }
        return max;
    }

    /**
     * The epoch a leader append is stamped with: a new epoch begins at the log end offset (recorded
     * in the cache before any of its batches is written); an epoch older than the latest is a
     * deposed leader's. A negative epoch stamps "none", as appends without replication do.
     */
    private int startEpoch(int epoch) throws IOException {
        if (epoch < 0) {
            return RecordBatch.NO_PARTITION_LEADER_EPOCH;
        }
        LeaderEpochCache epochs = log.leaderEpochCache();
        if (epoch < epochs.latestEpoch()) {
            throw new IllegalArgumentException("Cannot append to " + log.topicPartition() + " as leader in epoch " + epoch
                + ": the log is already in epoch " + epochs.latestEpoch());
        }
        if (epoch > epochs.latestEpoch()) {
            epochs.assign(epoch, log.end().offset());
        }
        return epoch;
    }

    /** {@link Log#appendAsFollower}. */
    LogAppendInfo appendAsFollower(ByteBuffer records) {
        log.health().ensureUsable();
        LogConfig config = log.config();
        LogAppendInfo info = LogValidator.validateReplicated(records, config);
        ReentrantLock lock = log.appendLock();
        lock.lock();
        try {
            log.health().ensureUsable();
            long end = log.end().offset();
            // Past the end is a gap a compacted leader's cleaner left; before it would rewrite the log.
            if (info.firstOffset() < end) {
                throw new UnexpectedAppendOffsetException(log.topicPartition(), end, info.firstOffset());
            }
            long now = log.context().time().milliseconds();
            // A fetch may bring more than a segment holds; each run fits one.
            for (Run run : LogValidator.runs(records, config.segmentBytes())) {
                recordEpochs(run.records());
                write(run.records(), run.info(), config, now);
                log.producerState().onReplicatedRecords(run.records(), now);
            }
            return info;
        } catch (IOException e) {
            throw log.health().offline("append to", e);
        } finally {
            lock.unlock();
        }
    }

    /** Records each leader epoch that begins in {@code records}, before the batches are written. */
    private void recordEpochs(ByteBuffer records) throws IOException {
        LeaderEpochCache epochs = log.leaderEpochCache();
        RecordBatch batch = RecordBatch.wrap(records, records.position());
        for (int at = records.position(); at < records.limit(); at += batch.sizeInBytes()) {
            batch.reset(records, at);
            if (batch.partitionLeaderEpoch() > epochs.latestEpoch()) {
                epochs.assign(batch.partitionLeaderEpoch(), batch.baseOffset());
            }
        }
    }

    private void write(ByteBuffer records, LogAppendInfo info, LogConfig config, long now) throws IOException {
        LogSegment active = log.end().segment();
        boolean roll = active.shouldRoll(records.remaining(), info.maxTimestamp(), info.lastOffset(), now, config);
        LogSegment segment = roll ? roll() : active;
        segment.append(records);
        // The publication point: readers see the new batches from here on, all of them or none.
        log.publishEnd(new LogEnd(info.lastOffset() + 1, segment, segment.size()));
        log.highWatermarkState().appended(info.lastOffset() + 1);
        if (log.unflushedMessages() >= config.flushMessages()) {
            log.context().flusher().requestFlush(log);
        }
    }

    /** {@link Log#roll()}, under the append lock. */
    void rollNow() {
        ReentrantLock lock = log.appendLock();
        lock.lock();
        try {
            log.health().ensureUsable();
            roll();
        } catch (IOException e) {
            throw log.health().offline("roll", e);
        } finally {
            lock.unlock();
        }
    }

    /** {@link Log#assignEpochStartOffset}: under the append lock, so it is ordered with appends. */
    void assignEpochStart(int epoch, long startOffset) {
        ReentrantLock lock = log.appendLock();
        lock.lock();
        try {
            log.health().ensureUsable();
            log.leaderEpochCache().assign(epoch, startOffset);
        } catch (IOException e) {
            throw log.health().offline("record the leader epoch of", e);
        } finally {
            lock.unlock();
        }
    }

    /** Starts a new active segment at the log end offset, unless the active one is empty. */
    LogSegment roll() throws IOException {
        LogEnd current = log.end();
        LogSegment old = current.segment();
        if (old.size() == 0) {
            return old;
        }
        LogSegment fresh = LogSegment.create(log.dir(), current.offset(), log.config(), log.context());
        log.segmentMap().put(fresh.baseOffset(), fresh);
        log.producerState().takeSnapshot(current.offset());
        old.onBecomeInactive();
        log.publishEnd(new LogEnd(current.offset(), fresh, 0));
        log.durabilityState().markDirDirty();
        // A closed segment never changes again: make it durable now rather than at the next policy flush.
        log.context().flusher().requestFlush(log);
        LOG.debug("Rolled {} at offset {}", log.dir(), current.offset());
        return fresh;
    }
}
