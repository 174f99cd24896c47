package io.millrace.broker.log;

import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.errors.RecordBatchTooLargeException;
import io.millrace.common.errors.RecordTooLargeException;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordIterator;
import io.millrace.common.errors.InvalidTimestampException;
import io.millrace.common.record.TimestampType;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * What an append does to the producer's bytes before they are written: every batch is checked
 * first, then offsets (and LogAppendTime) are written into the batches in place. The bytes are
 * never decompressed or re-serialized. Stateless; the caller owns the buffer.
 */
final class LogValidator {

    private LogValidator() {
    }

    /**
     * Checks every batch of {@code records} before anything is written: lengths, magic, codec,
     * record count against offset delta, CRC ({@link RecordBatch#ensureValid()}) and size against
     * {@code max.message.bytes}. hot path: no allocation beyond one view.
     *
     * @throws CorruptRecordException  damaged or truncated bytes
     * @throws InvalidRecordException  bytes that break the format's rules, or no batch at all
     * @throws RecordTooLargeException      a batch over {@code max.message.bytes} (MESSAGE_TOO_LARGE, which Kafka's
     *                                      producer answers by splitting the batch)
     * @throws RecordBatchTooLargeException the append over {@code segment.bytes} (RECORD_LIST_TOO_LARGE, as Kafka;
     *                                      its producer fails the batch rather than splitting it)
     */
    static void validate(ByteBuffer records, LogConfig config, long now) {
        if (!records.hasRemaining()) {
            throw new InvalidRecordException("An append needs at least one record batch");
        }
        RecordBatch batch = RecordBatch.wrap(records, records.position());
        for (int at = records.position(); at < records.limit(); at += batch.sizeInBytes()) {
            checkBatch(batch.reset(records, at), records.limit() - at, config, true);
            if (config.timestampType() == TimestampType.CREATE_TIME) {
                checkTimestamps(batch, config, now);
            }
            if (config.cleanupPolicy().compact()) {
                checkKeys(batch);
            }
        }
        // after the batches' own checks, as Kafka: a batch over both limits is MESSAGE_TOO_LARGE, which its producer splits
        if (records.remaining() > config.segmentBytes()) {
            throw new RecordBatchTooLargeException("An append of " + records.remaining() + " bytes cannot fit a segment of "
                + config.segmentBytes() + " bytes");
        }
    }

    /** Compaction keeps a key's last record; a record with no key has nothing to be kept by (Kafka's rule). */
    private static void checkKeys(RecordBatch batch) {
        try (RecordIterator records = batch.records()) {
            Record record = null;
            while (records.hasNext()) {
                record = records.nextInto(record);
                if (!record.hasKey()) {
                    throw new InvalidRecordException("A compacted topic cannot accept a record without a key (offset delta "
                        + (record.offset() - batch.baseOffset()) + " of the batch)");
                }
            }
        }
    }

    /** A producer's batch must fill its offset range; a replicated one may be compacted ({@link RecordBatch#ensureIntact()}). */
    private static void checkBatch(RecordBatch batch, int available, LogConfig config, boolean produced) {
        if (produced) {
            batch.ensureHeaderValid(available);
        } else {
            batch.ensureReadableHeader(available);
        }
        if (batch.sizeInBytes() > config.maxMessageBytes()) {
            throw new RecordTooLargeException("Record batch of " + batch.sizeInBytes()
                + " bytes is larger than max.message.bytes " + config.maxMessageBytes());
        }
        batch.ensureIntact();
    }

    /**
     * Checks batches a follower copies from its leader, which keep the leader's offsets, epochs and
     * timestamps: the same checks of each batch as {@link #validate}, except the timestamp bounds
     * (the leader applied them with its clock), and offsets that increase from one batch to the
     * next (a compacted leader's log has gaps between them). Returns the append's offsets; the
     * caller checks that the first is not below the log's end.
     *
     * @throws InvalidRecordException a batch is damaged, or starts before the one before it ended
     */
    static LogAppendInfo validateReplicated(ByteBuffer records, LogConfig config) {
        if (!records.hasRemaining()) {
            throw new InvalidRecordException("An append needs at least one record batch");
        }
        RecordBatch batch = RecordBatch.wrap(records, records.position());
        long first = batch.baseOffset();
        long next = first;
        int count = 0;
        long maxTimestamp = RecordBatch.NO_TIMESTAMP;
        for (int at = records.position(); at < records.limit(); at += batch.sizeInBytes()) {
            checkBatch(batch.reset(records, at), records.limit() - at, config, false);
            if (batch.baseOffset() < next) {
                throw new InvalidRecordException("A replicated batch starts at offset " + batch.baseOffset()
                    + ", before the end of the batch before it at " + next);
            }
            next = batch.nextOffset();
            count += batch.recordCount();
            maxTimestamp = Math.max(maxTimestamp, batch.maxTimestamp());
        }
        return new LogAppendInfo(first, next - 1, count, maxTimestamp, RecordBatch.NO_TIMESTAMP, records.remaining());
    }

    /**
     * Splits validated batches into runs of whole batches of at most {@code maxBytes} each (a
     * batch larger than that is a run of its own), so that a large replicated append still fits
     * segments; each run is a view of {@code records} with what appending it will report.
     */
    static List<Run> runs(ByteBuffer records, int maxBytes) {
        List<Run> runs = new ArrayList<>(1);
        RecordBatch batch = RecordBatch.wrap(records, records.position());
        int start = records.position();
        for (int at = start; at < records.limit(); at += batch.sizeInBytes()) {
            batch.reset(records, at);
            if (at > start && at + batch.sizeInBytes() - start > maxBytes) {
                runs.add(run(records, start, at));
                start = at;
            }
        }
        runs.add(run(records, start, records.limit()));
        return runs;
    }

    private static Run run(ByteBuffer records, int from, int to) {
        ByteBuffer view = records.duplicate().limit(to).position(from).slice();
        return new Run(view, describe(view));
    }

    private static LogAppendInfo describe(ByteBuffer run) {
        RecordBatch batch = RecordBatch.wrap(run, 0);
        long first = batch.baseOffset();
        long last = first;
        int count = 0;
        long maxTimestamp = RecordBatch.NO_TIMESTAMP;
        for (int at = 0; at < run.limit(); at += batch.sizeInBytes()) {
            batch.reset(run, at);
            last = batch.lastOffset();
            count += batch.recordCount();
            maxTimestamp = Math.max(maxTimestamp, batch.maxTimestamp());
        }
        return new LogAppendInfo(first, last, count, maxTimestamp, RecordBatch.NO_TIMESTAMP, run.remaining());
    }

    /** Whole batches to append together, and what the append reports. */
    record Run(ByteBuffer records, LogAppendInfo info) {
    }

    /** Writes {@code epoch} into every batch's PartitionLeaderEpoch, which the CRC does not cover. */
    static void stampLeaderEpoch(ByteBuffer records, int epoch) {
        RecordBatch batch = RecordBatch.wrap(records, records.position());
        for (int at = records.position(); at < records.limit(); at += batch.sizeInBytes()) {
            batch.reset(records, at);
            batch.setPartitionLeaderEpoch(epoch);
        }
    }

    /**
     * The bounds of {@code message.timestamp.after.max.ms} / {@code before.max.ms}, from the batch
     * header alone (its largest timestamp, and its first), so nothing is decompressed.
     */
    private static void checkTimestamps(RecordBatch batch, LogConfig config, long now) {
        long max = batch.maxTimestamp();
        if (max != RecordBatch.NO_TIMESTAMP && max - now > config.timestampAfterMaxMs()) {
            throw new InvalidTimestampException("A record's timestamp " + max + " is " + (max - now) + " ms ahead of the "
                + "broker's clock (" + now + "), more than message.timestamp.after.max.ms " + config.timestampAfterMaxMs());
        }
        long first = batch.baseTimestamp();
        if (first != RecordBatch.NO_TIMESTAMP && now - first > config.timestampBeforeMaxMs()) {
            throw new InvalidTimestampException("A record's timestamp " + first + " is " + (now - first) + " ms behind the "
                + "broker's clock (" + now + "), more than message.timestamp.before.max.ms " + config.timestampBeforeMaxMs());
        }
    }

    /**
     * Gives the validated batches consecutive offsets from {@code firstOffset} by rewriting each
     * BaseOffset (outside the CRC), and with LogAppendTime stamps each with {@code now} (which
     * rewrites its CRC). Returns what the append will report.
     */
    static LogAppendInfo assignOffsets(ByteBuffer records, long firstOffset, long now, TimestampType type) {
        boolean stamp = type == TimestampType.LOG_APPEND_TIME;
        long next = firstOffset;
        int count = 0;
        long maxTimestamp = RecordBatch.NO_TIMESTAMP;
        RecordBatch batch = RecordBatch.wrap(records, records.position());
        for (int at = records.position(); at < records.limit(); at += batch.sizeInBytes()) {
            batch.reset(records, at);
            batch.setBaseOffset(next);
            if (stamp) {
                batch.setLogAppendTime(now);
            }
            next = batch.nextOffset();
            count += batch.recordCount();
            maxTimestamp = Math.max(maxTimestamp, batch.maxTimestamp());
        }
        return new LogAppendInfo(firstOffset, next - 1, count, maxTimestamp, stamp ? now : RecordBatch.NO_TIMESTAMP,
            records.remaining());
    }
}
