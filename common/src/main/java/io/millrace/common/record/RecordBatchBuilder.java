package io.millrace.common.record;

import io.millrace.common.compress.Compression;
import io.millrace.common.utils.ByteBufferOutputStream;
import io.millrace.common.utils.ByteUtils;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/**
 * Writes one record batch v2. Records are appended with increasing offsets starting at the
 * base offset (the broker rewrites it anyway); {@link #build()} writes the header, the CRC and
 * returns the batch. Uncompressed records are encoded straight into the output buffer;
 * compressed ones go through the codec's stream, the way Kafka's {@code MemoryRecordsBuilder}
 * does it, so both produce the same bytes.
 *
 * <p>Not thread-safe. A builder builds one batch. A builder that will not be built must be
 * {@link #abort() aborted}: a zstd stream holds native memory until it is closed.
 */
public final class RecordBatchBuilder {

    private final ByteBufferOutputStream out;
    private final int batchStart;
    private final CompressionType compression;
    private final TimestampType timestampType;
    private final long baseOffset;
    private final long logAppendTime;
    private final OutputStream compressor;

    private long producerId = RecordBatch.NO_PRODUCER_ID;
    private short producerEpoch = RecordBatch.NO_PRODUCER_EPOCH;
    private int baseSequence = RecordBatch.NO_SEQUENCE;
    private int partitionLeaderEpoch = RecordBatch.NO_PARTITION_LEADER_EPOCH;
    private boolean transactional;
    private boolean control;
    // Set when the batch keeps the offsets of a batch it was compacted from; -1 means count - 1.
    private int keptLastOffsetDelta = -1;

    private ByteBuffer scratch;
    private int count;
    private long baseTimestamp = RecordBatch.NO_TIMESTAMP;
    private long maxTimestamp = RecordBatch.NO_TIMESTAMP;
    private int uncompressedRecordBytes;
    private ByteBuffer built;
    private boolean aborted;
    private int lastAppendedOffsetDelta = -1;

    /**
     * @param out           where the batch goes, starting at its current position
     * @param logAppendTime the broker's stamp when {@code timestampType} is LOG_APPEND_TIME, else ignored
     */
    public RecordBatchBuilder(ByteBufferOutputStream out, CompressionType compression, TimestampType timestampType,
                              long baseOffset, long logAppendTime) {
        this.out = out;
        this.batchStart = out.position();
        this.compression = compression;
        this.timestampType = timestampType;
        this.baseOffset = baseOffset;
        this.logAppendTime = logAppendTime;
        out.position(batchStart + RecordBatch.RECORDS_OFFSET);
        this.compressor = compression == CompressionType.NONE ? null : Compression.wrapForOutput(compression, out);
    }

    /** A builder for a CreateTime batch in a buffer of its own. */
    public static RecordBatchBuilder create(CompressionType compression, long baseOffset, int initialCapacity) {
        return new RecordBatchBuilder(new ByteBufferOutputStream(initialCapacity), compression,
            TimestampType.CREATE_TIME, baseOffset, RecordBatch.NO_TIMESTAMP);
    }

    public RecordBatchBuilder producerState(long producerId, short producerEpoch, int baseSequence, boolean transactional) {
        this.producerId = producerId;
        this.producerEpoch = producerEpoch;
        this.baseSequence = baseSequence;
        this.transactional = transactional;
        return this;
    }

    /** Marks the batch as a control batch: its records are markers for the broker and the consumer, not data. */
    public RecordBatchBuilder controlBatch() {
        this.control = true;
        return this;
    }

    public RecordBatchBuilder partitionLeaderEpoch(int epoch) {
        this.partitionLeaderEpoch = epoch;
        return this;
    }

    /** Appends a record with the next offset. Key, value and header values may be null. */
    public RecordBatchBuilder append(long timestamp, byte[] key, byte[] value, Header... headers) {
        return append(timestamp, key == null ? null : ByteBuffer.wrap(key), value == null ? null : ByteBuffer.wrap(value), headers);
    }

    /** Appends a record with the next offset; the key's and value's remaining bytes are copied. */
    public RecordBatchBuilder append(long timestamp, ByteBuffer key, ByteBuffer value, Header... headers) {
        ensureAppendable();
        long timestampDelta = count == 0 ? 0 : timestamp - baseTimestamp;
        int bodySize = Record.sizeOfBody(count, timestampDelta, key, value, headers);
        append(timestamp, bodySize, ByteUtils.sizeOfVarint(bodySize) + bodySize, key, value, headers);
        return this;
    }

    /**
     * Appends the record if the batch stays within {@code sizeLimit} bytes, decided as
     * {@link #hasRoomFor} decides (an empty batch takes any record), sizing the record once for
     * both: a producer's per-record path.
     *
     * @return the bytes the record took in the batch (uncompressed), or -1 if it did not fit
     */
    public int tryAppend(long timestamp, ByteBuffer key, ByteBuffer value, Header[] headers, int sizeLimit) {
        ensureAppendable();
        long timestampDelta = count == 0 ? 0 : timestamp - baseTimestamp;
        int bodySize = Record.sizeOfBody(count, timestampDelta, key, value, headers);
        int size = ByteUtils.sizeOfVarint(bodySize) + bodySize;
        if (count > 0 && estimatedSizeInBytes() + size > sizeLimit) {
            return -1;
        }
        append(timestamp, bodySize, size, key, value, headers);
        return size;
    }

    /**
     * As {@link #tryAppend(long, ByteBuffer, ByteBuffer, Header[], int)}, for a key and value in arrays
     * (null for none): written into the batch's array by index when the output is a heap buffer.
     */
    public int tryAppend(long timestamp, byte[] key, byte[] value, Header[] headers, int sizeLimit) {
        ensureAppendable();
        long timestampDelta = count == 0 ? 0 : timestamp - baseTimestamp;
        int bodySize = Record.sizeOfBody(count, timestampDelta, key == null ? -1 : key.length, value == null ? -1 : value.length,
            headers);
        int size = ByteUtils.sizeOfVarint(bodySize) + bodySize;
        if (count > 0 && estimatedSizeInBytes() + size > sizeLimit) {
            return -1;
        }
        ByteBuffer target = startRecord(timestamp, size);
        if (target.hasArray()) {
            int start = target.arrayOffset() + target.position();
            int end = Record.write(target.array(), start, bodySize, count, timestamp - baseTimestamp, key, value, headers);
            target.position(target.position() + end - start);
        } else {
            Record.write(target, bodySize, count, timestamp - baseTimestamp, key == null ? null : ByteBuffer.wrap(key),
                value == null ? null : ByteBuffer.wrap(value), headers);
        }
        finishRecord(size);
        return size;
    }

    /**
     * Appends every record of {@code source} with the next offsets, if the batch stays within
     * {@code sizeLimit} bytes (an empty batch takes any): each record's bytes copied as they are but for
     * its offset and timestamp deltas, which are written again against this batch. Keys, values, headers
     * and timestamps are kept; nothing is decoded into objects. How a copier fills its own batches from
     * small fetched ones; a compressed source is inflated first, so it is cheaper sent whole.
     *
     * @return the records appended, or -1 when they did not fit (nothing appended)
     */
    public int tryAppendRecordsOf(RecordBatch source, int sizeLimit) {
        ensureAppendable();
        RecordIterator records = source.records();
        int sourceBytes = source.sizeInBytes() - RecordBatch.RECORDS_OFFSET;
        if (count > 0 && estimatedSizeInBytes() + upperBoundOfReframed(sourceBytes, records.count()) > sizeLimit) {
            return -1;
        }
        int appended = 0;
        Record record = null;
        while (records.hasNext()) {
            record = records.nextInto(record);
            appendReframed(record);
            appended++;
        }
        return appended;
    }

    /** The most bytes a batch holding just the records of {@code source} takes once they are appended here. */
    public static int sizeOfReframed(RecordBatch source) {
        return RecordBatch.RECORDS_OFFSET
            + upperBoundOfReframed(source.sizeInBytes() - RecordBatch.RECORDS_OFFSET, source.recordCount());
    }

    /**
     * The most bytes {@code count} records of {@code bytes} can take once their deltas are written again:
     * Length may grow by a byte, TimestampDelta to a full varlong, OffsetDelta to a full varint. A bound,
     * so the size check is made once, before any record is copied.
     */
    private static int upperBoundOfReframed(int bytes, int count) {
        return bytes + count * (1 + 9 + 4);
    }

    private void appendReframed(Record record) {
        appendWithOffsetDelta(record, count);
    }

    /**
     * Appends a record kept from a batch being compacted, at the offset delta it had there, so that
     * it keeps its offset: a log cleaner's copy of the records that survive. Offset deltas must
     * increase from one call to the next; {@link #buildKeeping} then gives the batch the source's last
     * offset delta, whether or not its last record survived.
     */
    public RecordBatchBuilder appendKept(Record record) {
        ensureAppendable();
        int offsetDelta = record.offsetDelta();
        if (count > 0 && offsetDelta <= lastAppendedOffsetDelta) {
            throw new IllegalArgumentException("Offset delta " + offsetDelta + " does not follow " + lastAppendedOffsetDelta);
        }
        appendWithOffsetDelta(record, offsetDelta);
        lastAppendedOffsetDelta = offsetDelta;
        return this;
    }

    /**
     * Finishes a batch of {@link #appendKept kept} records from {@code source} whose header still
     * spans the source's offsets (its last offset delta), as Kafka's cleaner keeps them so that the
     * batch's producer sequence range stays whole. With no record kept it is an empty batch: the
     * header alone, with the source's timestamps, which keeps an idempotent producer's last sequence
     * and the segment's largest timestamp in the log.
     */
    public ByteBuffer buildKeeping(RecordBatch source) {
        int lastOffsetDelta = source.lastOffsetDelta();
        if (count > 0 && lastOffsetDelta < lastAppendedOffsetDelta) {
            throw new IllegalArgumentException("Last offset delta " + lastOffsetDelta + " is before the last record's "
                + lastAppendedOffsetDelta);
        }
        if (count == 0) {
            baseTimestamp = source.baseTimestamp();
            maxTimestamp = source.maxTimestamp();
        }
        keptLastOffsetDelta = lastOffsetDelta;
        return build();
    }

    private void appendWithOffsetDelta(Record record, int offsetDelta) {
        long timestamp = record.timestamp();
        if (count == 0) {
            baseTimestamp = timestamp;
        }
        maxTimestamp = Math.max(maxTimestamp, timestamp);
        long timestampDelta = timestamp - baseTimestamp;
        int size = record.sizeWithDeltas(offsetDelta, timestampDelta);
        if (compressor == null) {
            out.ensureRemaining(size);
            record.writeWithDeltas(out.buffer(), offsetDelta, timestampDelta);
        } else {
            record.writeWithDeltas(scratch(size), offsetDelta, timestampDelta);
            compressScratch();
        }
        uncompressedRecordBytes += size;
        count++;
    }

    private void ensureAppendable() {
        if (built != null) {
            throw new IllegalStateException(aborted ? "The batch was aborted" : "The batch is already built");
        }
    }

    private void append(long timestamp, int bodySize, int size, ByteBuffer key, ByteBuffer value, Header[] headers) {
        ByteBuffer target = startRecord(timestamp, size);
        Record.write(target, bodySize, count, timestamp - baseTimestamp, key, value, headers);
        finishRecord(size);
    }

    /** Where the next record of {@code size} bytes is written: the batch's buffer, or the codec's scratch. */
    private ByteBuffer startRecord(long timestamp, int size) {
        if (count == 0) {
            baseTimestamp = timestamp;
        }
        maxTimestamp = Math.max(maxTimestamp, timestamp);
        if (compressor == null) {
            out.ensureRemaining(size);
            return out.buffer();
        }
        return scratch(size);
    }

    private void finishRecord(int size) {
        if (compressor != null) {
            compressScratch();
        }
        uncompressedRecordBytes += size;
        count++;
    }

    /** The cleared buffer a record is written into before the codec takes it, with room for {@code size} bytes. */
    private ByteBuffer scratch(int size) {
        if (scratch == null || scratch.capacity() < size) {
            scratch = ByteBuffer.allocate(Math.max(size, 256));
        }
        scratch.clear();
        return scratch;
    }

    private void compressScratch() {
        try {
            compressor.write(scratch.array(), 0, scratch.position());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int recordCount() {
        return count;
    }

    /** Bytes the batch takes so far if it were uncompressed: an upper bound for a producer's batch.size check. */
    public int estimatedSizeInBytes() {
        return RecordBatch.RECORDS_OFFSET + uncompressedRecordBytes;
    }

    /**
     * Whether a record with these fields still fits within {@code sizeLimit} bytes of batch,
     * counted as if uncompressed (an upper bound). An empty batch always takes its first record,
     * so one record larger than the limit still gets a batch of its own. Lets a producer that
     * builds into a fixed-size pooled buffer decide before appending, instead of after the
     * buffer has grown.
     */
    public boolean hasRoomFor(long timestamp, ByteBuffer key, ByteBuffer value, Header[] headers, int sizeLimit) {
        if (count == 0) {
            return true;
        }
        long timestampDelta = timestamp - baseTimestamp;
        int bodySize = Record.sizeOfBody(count, timestampDelta, key, value, headers);
        return estimatedSizeInBytes() + ByteUtils.sizeOfVarint(bodySize) + bodySize <= sizeLimit;
    }

    /**
     * The bytes an uncompressed batch holding just this record takes: what a producer allocates
     * for a record larger than its usual batch size. (A first record's offset and timestamp
     * deltas are both zero.)
     */
    public static int sizeOfSingleRecordBatch(ByteBuffer key, ByteBuffer value, Header[] headers) {
        int bodySize = Record.sizeOfBody(0, 0, key, value, headers);
        return RecordBatch.RECORDS_OFFSET + ByteUtils.sizeOfVarint(bodySize) + bodySize;
    }

    /**
     * Finishes the batch: closes the codec stream, writes the header and CRC. Returns a buffer
     * holding exactly the batch (position 0, limit its size). Calling it again returns the same.
     */
    public ByteBuffer build() {
        if (aborted) {
            throw new IllegalStateException("The batch was aborted");
        }
        if (built != null) {
            return built.duplicate();
        }
        if (count == 0 && keptLastOffsetDelta < 0) {
            throw new IllegalStateException("A record batch needs at least one record");
        }
        closeCompressor();
        ByteBuffer buffer = out.buffer();
        int end = buffer.position();
        writeHeader(buffer, end - batchStart);
        ByteBuffer batch = buffer.duplicate();
        batch.limit(end).position(batchStart);
        built = batch.slice();
        return built.duplicate();
    }

    /**
     * Gives up the batch and releases the codec stream. The output buffer's content past the
     * batch's start is then undefined. Later calls to append or build fail.
     */
    public void abort() {
        if (built != null) {
            return;
        }
        closeCompressor();
        built = ByteBuffer.allocate(0);
        aborted = true;
    }

    private void closeCompressor() {
        if (compressor == null) {
            return;
        }
        try {
            compressor.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void writeHeader(ByteBuffer buffer, int size) {
        int s = batchStart;
        short attributes = (short) (compression.id
            | (timestampType == TimestampType.LOG_APPEND_TIME ? RecordBatch.TIMESTAMP_TYPE_MASK : 0)
            | (transactional ? RecordBatch.TRANSACTIONAL_FLAG_MASK : 0)
            | (control ? RecordBatch.CONTROL_FLAG_MASK : 0));
        long max = timestampType == TimestampType.LOG_APPEND_TIME ? logAppendTime : maxTimestamp;
        buffer.putLong(s + RecordBatch.BASE_OFFSET_OFFSET, baseOffset);
        buffer.putInt(s + RecordBatch.LENGTH_OFFSET, size - RecordBatch.LOG_OVERHEAD);
        buffer.putInt(s + RecordBatch.PARTITION_LEADER_EPOCH_OFFSET, partitionLeaderEpoch);
        buffer.put(s + RecordBatch.MAGIC_OFFSET, RecordBatch.MAGIC);
        buffer.putShort(s + RecordBatch.ATTRIBUTES_OFFSET, attributes);
        buffer.putInt(s + RecordBatch.LAST_OFFSET_DELTA_OFFSET, keptLastOffsetDelta >= 0 ? keptLastOffsetDelta : count - 1);
        buffer.putLong(s + RecordBatch.BASE_TIMESTAMP_OFFSET, baseTimestamp);
        buffer.putLong(s + RecordBatch.MAX_TIMESTAMP_OFFSET, max);
        buffer.putLong(s + RecordBatch.PRODUCER_ID_OFFSET, producerId);
        buffer.putShort(s + RecordBatch.PRODUCER_EPOCH_OFFSET, producerEpoch);
        buffer.putInt(s + RecordBatch.BASE_SEQUENCE_OFFSET, baseSequence);
        buffer.putInt(s + RecordBatch.RECORDS_COUNT_OFFSET, count);
        ByteUtils.writeUnsignedInt(buffer, s + RecordBatch.CRC_OFFSET, RecordBatch.wrap(buffer, s).computeChecksum());
    }
}
