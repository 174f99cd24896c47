package io.millrace.common.record;

import io.millrace.common.errors.InvalidRecordException;
import java.nio.ByteBuffer;

/**
 * The one record of a control batch that ends a transaction in a partition: whether the
 * producer's records since its transaction began are committed or aborted, and the epoch of the
 * transaction coordinator that decided it. Consumers reading committed data drop an aborted
 * transaction's records; every consumer skips the marker itself.
 *
 * <pre>
 * Key   => Version Type
 *   Version          => int16, 0
 *   Type             => int16, 0 abort, 1 commit
 * Value => Version CoordinatorEpoch
 *   Version          => int16, 0
 *   CoordinatorEpoch => int32
 * </pre>
 *
 * The batch is transactional and control, carries the producer's id and epoch, and no sequence.
 *
 * @param commit           true to commit, false to abort
 * @param coordinatorEpoch the epoch of the coordinator that wrote it
 */
public record EndTransactionMarker(boolean commit, int coordinatorEpoch) {

    private static final short ABORT = 0;
    private static final short COMMIT = 1;
    private static final short VERSION = 0;
    private static final int KEY_SIZE = 2 * Short.BYTES;
    private static final int VALUE_SIZE = Short.BYTES + Integer.BYTES;

    /** A control batch holding this marker for {@code producerId} at {@code epoch}, at offset 0 until assigned. */
    public ByteBuffer toBatch(long producerId, short producerEpoch, long timestamp, int partitionLeaderEpoch) {
        ByteBuffer key = ByteBuffer.allocate(KEY_SIZE).putShort(VERSION).putShort(commit ? COMMIT : ABORT).flip();
        ByteBuffer value = ByteBuffer.allocate(VALUE_SIZE).putShort(VERSION).putInt(coordinatorEpoch).flip();
        return RecordBatchBuilder.create(CompressionType.NONE, 0L, 96)
            .producerState(producerId, producerEpoch, RecordBatch.NO_SEQUENCE, true)
            .controlBatch()
            .partitionLeaderEpoch(partitionLeaderEpoch)
            .append(timestamp, key, value)
            .build();
    }

    /**
     * The marker in {@code batch}, a control batch, or null when its record is a control record of
     * another type (Kafka has others; they end no transaction).
     *
     * @throws InvalidRecordException the batch holds no record, or the record is not a control record
     */
    public static EndTransactionMarker read(RecordBatch batch) {
        Record record;
        try (RecordIterator records = batch.records()) {
            if (!records.hasNext()) {
                throw new InvalidRecordException("Control batch at offset " + batch.baseOffset() + " holds no record");
            }
            record = records.next();
        }
        ByteBuffer key = record.key();
        if (key == null || key.remaining() < KEY_SIZE) {
            throw new InvalidRecordException("Control record at offset " + record.offset() + " has no control key");
        }
        short type = key.getShort(key.position() + Short.BYTES);
        if (type != ABORT && type != COMMIT) {
            return null;
        }
        ByteBuffer value = record.value();
        if (value == null || value.remaining() < VALUE_SIZE) {
            throw new InvalidRecordException("Transaction marker at offset " + record.offset() + " has no coordinator epoch");
        }
        return new EndTransactionMarker(type == COMMIT, value.getInt(value.position() + Short.BYTES));
    }
}
