package io.millrace.broker.log;

import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.errors.RecordTooLargeException;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.errors.InvalidTimestampException;
import io.millrace.common.record.TimestampType;
import java.nio.ByteBuffer;

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
     * @throws RecordTooLargeException a batch over {@code max.message.bytes}, or the append over {@code segment.bytes}
     */
    static void validate(ByteBuffer records, LogConfig config, long now) {
        if (!records.hasRemaining()) {
            throw new InvalidRecordException("An append needs at least one record batch");
        }
        if (records.remaining() > config.segmentBytes()) {
            throw new RecordTooLargeException("An append of " + records.remaining() + " bytes cannot fit a segment of "
                + config.segmentBytes() + " bytes");
        }
        RecordBatch batch = RecordBatch.wrap(records, records.position());
        for (int at = records.position(); at < records.limit(); at += batch.sizeInBytes()) {
            batch.reset(records, at);
            batch.ensureHeaderValid(records.limit() - at);
            if (batch.sizeInBytes() > config.maxMessageBytes()) {
                throw new RecordTooLargeException("Record batch of " + batch.sizeInBytes()
                    + " bytes is larger than max.message.bytes " + config.maxMessageBytes());
            }
            batch.ensureValid();
            if (config.timestampType() == TimestampType.CREATE_TIME) {
                checkTimestamps(batch, config, now);
            }
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
