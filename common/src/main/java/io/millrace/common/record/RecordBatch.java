package io.millrace.common.record;

import io.millrace.common.compress.Compression;
import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.utils.ByteUtils;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * A flyweight view of one Kafka record batch v2 (magic 2) inside a {@link ByteBuffer}: reading a
 * field reads the bytes where they lie, so a broker can validate, re-offset and append a batch
 * without copying it. The view never moves the buffer's position or limit.
 *
 * <pre>
 * RecordBatch =&gt;
 *   BaseOffset           int64   offset of the first record; rewritten by the broker on append
 *   Length               int32   bytes from PartitionLeaderEpoch to the end of the batch
 *   PartitionLeaderEpoch int32
 *   Magic                int8    = 2
 *   CRC                  uint32  CRC-32C of Attributes .. end of batch
 *   Attributes           int16   see below
 *   LastOffsetDelta      int32   offset of the last record minus BaseOffset
 *   BaseTimestamp        int64
 *   MaxTimestamp         int64
 *   ProducerId           int64   -1 when not idempotent
 *   ProducerEpoch        int16
 *   BaseSequence         int32
 *   RecordsCount         int32
 *   Records              [Record], compressed as a whole when the codec is not none
 * </pre>
 *
 * Attributes: bits 0-2 the {@link CompressionType} id, bit 3 the {@link TimestampType}
 * (1 = LogAppendTime), bit 4 transactional, bit 5 control batch, bit 6 has-delete-horizon;
 * the rest are zero.
 *
 * <p>The CRC starts at Attributes, so the broker may rewrite BaseOffset and PartitionLeaderEpoch
 * without recomputing it; changing the timestamp type or MaxTimestamp does require it.
 *
 * <p>Example: the 71 bytes of an uncompressed batch at offset 0 holding one record, key
 * {@code "k"}, value {@code "hi"}, CreateTime 1700000000000 (2023-11-14T22:13:20Z), no producer id
 * ({@code RecordBatchExampleTest} builds it and compares):
 * <pre>
 * 00 00 00 00 00 00 00 00   BaseOffset 0
 * 00 00 00 3b               Length 59 = 71 - 12
 * ff ff ff ff               PartitionLeaderEpoch -1
 * 02                        Magic 2
 * cb f3 29 e0               CRC-32C of the 50 bytes from Attributes to the end
 * 00 00                     Attributes: no compression, CreateTime
 * 00 00 00 00               LastOffsetDelta 0
 * 00 00 01 8b cf e5 68 00   BaseTimestamp 1700000000000
 * 00 00 01 8b cf e5 68 00   MaxTimestamp 1700000000000
 * ff ff ff ff ff ff ff ff   ProducerId -1
 * ff ff                     ProducerEpoch -1
 * ff ff ff ff               BaseSequence -1
 * 00 00 00 01               RecordsCount 1
 * 12                          Record Length 9 (varints are zig-zag: 9 is written as 0x12)
 * 00                          Attributes
 * 00                          TimestampDelta 0
 * 00                          OffsetDelta 0
 * 02 6b                       KeyLength 1, "k"
 * 04 68 69                    ValueLength 2, "hi"
 * 00                          HeadersCount 0
 * </pre>
 *
 * <p>Not thread-safe; a view may be re-pointed with {@link #reset} to avoid allocation.
 */
public final class RecordBatch {

    public static final byte MAGIC = 2;

    static final int BASE_OFFSET_OFFSET = 0;
    static final int BASE_OFFSET_LENGTH = 8;
    static final int LENGTH_OFFSET = BASE_OFFSET_OFFSET + BASE_OFFSET_LENGTH;
    static final int LENGTH_LENGTH = 4;
    static final int PARTITION_LEADER_EPOCH_OFFSET = LENGTH_OFFSET + LENGTH_LENGTH;
    static final int PARTITION_LEADER_EPOCH_LENGTH = 4;
    static final int MAGIC_OFFSET = PARTITION_LEADER_EPOCH_OFFSET + PARTITION_LEADER_EPOCH_LENGTH;
    static final int MAGIC_LENGTH = 1;
    static final int CRC_OFFSET = MAGIC_OFFSET + MAGIC_LENGTH;
    static final int CRC_LENGTH = 4;
    static final int ATTRIBUTES_OFFSET = CRC_OFFSET + CRC_LENGTH;
    static final int ATTRIBUTE_LENGTH = 2;
    static final int LAST_OFFSET_DELTA_OFFSET = ATTRIBUTES_OFFSET + ATTRIBUTE_LENGTH;
    static final int LAST_OFFSET_DELTA_LENGTH = 4;
    static final int BASE_TIMESTAMP_OFFSET = LAST_OFFSET_DELTA_OFFSET + LAST_OFFSET_DELTA_LENGTH;
    static final int BASE_TIMESTAMP_LENGTH = 8;
    static final int MAX_TIMESTAMP_OFFSET = BASE_TIMESTAMP_OFFSET + BASE_TIMESTAMP_LENGTH;
    static final int MAX_TIMESTAMP_LENGTH = 8;
    static final int PRODUCER_ID_OFFSET = MAX_TIMESTAMP_OFFSET + MAX_TIMESTAMP_LENGTH;
    static final int PRODUCER_ID_LENGTH = 8;
    static final int PRODUCER_EPOCH_OFFSET = PRODUCER_ID_OFFSET + PRODUCER_ID_LENGTH;
    static final int PRODUCER_EPOCH_LENGTH = 2;
    static final int BASE_SEQUENCE_OFFSET = PRODUCER_EPOCH_OFFSET + PRODUCER_EPOCH_LENGTH;
    static final int BASE_SEQUENCE_LENGTH = 4;
    static final int RECORDS_COUNT_OFFSET = BASE_SEQUENCE_OFFSET + BASE_SEQUENCE_LENGTH;
    static final int RECORDS_COUNT_LENGTH = 4;
    static final int RECORDS_OFFSET = RECORDS_COUNT_OFFSET + RECORDS_COUNT_LENGTH;

    /** BaseOffset and Length: the bytes that precede what Length counts. */
    public static final int LOG_OVERHEAD = LENGTH_OFFSET + LENGTH_LENGTH;
    /** The fixed header, up to and including RecordsCount. */
    public static final int HEADER_SIZE = RECORDS_OFFSET;
    /** The smallest value Length can take: a header with no records. */
    public static final int MIN_LENGTH = HEADER_SIZE - LOG_OVERHEAD;

    static final short COMPRESSION_CODEC_MASK = 0x07;
    static final short TIMESTAMP_TYPE_MASK = 0x08;
    static final short TRANSACTIONAL_FLAG_MASK = 0x10;
    static final short CONTROL_FLAG_MASK = 0x20;
    static final short DELETE_HORIZON_FLAG_MASK = 0x40;

    public static final long NO_PRODUCER_ID = -1L;
    public static final short NO_PRODUCER_EPOCH = -1;
    public static final int NO_SEQUENCE = -1;
    public static final int NO_PARTITION_LEADER_EPOCH = -1;
    public static final long NO_TIMESTAMP = -1L;

    /**
     * How far {@link #records()} lets a compressed batch inflate. Kafka's producer keeps a batch's
     * uncompressed size near {@code max.request.size} (1 MB by default), so 64 MB leaves wide room
     * for honest batches while a decompression bomb costs at most this much heap.
     */
    public static final int DEFAULT_MAX_RECORDS_BYTES = 64 * 1024 * 1024;

    private ByteBuffer buffer;
    private int start;

    private RecordBatch(ByteBuffer buffer, int start) {
        this.buffer = buffer;
        this.start = start;
    }

    /**
     * A view of the batch starting at absolute index {@code start}. The caller has made sure at
     * least {@link #LOG_OVERHEAD} bytes are there; {@link RecordBatchIterator} does this for
     * untrusted input.
     */
    public static RecordBatch wrap(ByteBuffer buffer, int start) {
        return new RecordBatch(buffer, start);
    }

    /** A view of the batch at the buffer's position. */
    public static RecordBatch wrap(ByteBuffer buffer) {
        return new RecordBatch(buffer, buffer.position());
    }

    /** Re-points this view at another batch, so a loop can read many batches with one object. */
    public RecordBatch reset(ByteBuffer buffer, int start) {
        this.buffer = buffer;
        this.start = start;
        return this;
    }

    public ByteBuffer buffer() {
        return buffer;
    }

    /** Absolute index of the batch's first byte in {@link #buffer()}. */
    public int start() {
        return start;
    }

    public long baseOffset() {
        return buffer.getLong(start + BASE_OFFSET_OFFSET);
    }

    public int batchLength() {
        return buffer.getInt(start + LENGTH_OFFSET);
    }

    /** The whole batch in bytes, BaseOffset included. */
    public int sizeInBytes() {
        return LOG_OVERHEAD + batchLength();
    }

    public int partitionLeaderEpoch() {
        return buffer.getInt(start + PARTITION_LEADER_EPOCH_OFFSET);
    }

    public byte magic() {
        return buffer.get(start + MAGIC_OFFSET);
    }

    /** The CRC stored in the batch, unsigned. */
    public long checksum() {
        return ByteUtils.readUnsignedInt(buffer, start + CRC_OFFSET);
    }

    public short attributes() {
        return buffer.getShort(start + ATTRIBUTES_OFFSET);
    }

    public CompressionType compressionType() {
        return CompressionType.forId(attributes() & COMPRESSION_CODEC_MASK);
    }

    public TimestampType timestampType() {
        return (attributes() & TIMESTAMP_TYPE_MASK) == 0 ? TimestampType.CREATE_TIME : TimestampType.LOG_APPEND_TIME;
    }

    public boolean isTransactional() {
        return (attributes() & TRANSACTIONAL_FLAG_MASK) != 0;
    }

    public boolean isControlBatch() {
        return (attributes() & CONTROL_FLAG_MASK) != 0;
    }

    public boolean hasDeleteHorizon() {
        return (attributes() & DELETE_HORIZON_FLAG_MASK) != 0;
    }

    public int lastOffsetDelta() {
        return buffer.getInt(start + LAST_OFFSET_DELTA_OFFSET);
    }

    public long lastOffset() {
        return baseOffset() + lastOffsetDelta();
    }

    /** The offset the next batch of the log will get. */
    public long nextOffset() {
        return lastOffset() + 1;
    }

    public long baseTimestamp() {
        return buffer.getLong(start + BASE_TIMESTAMP_OFFSET);
    }

    public long maxTimestamp() {
        return buffer.getLong(start + MAX_TIMESTAMP_OFFSET);
    }

    public long producerId() {
        return buffer.getLong(start + PRODUCER_ID_OFFSET);
    }

    public short producerEpoch() {
        return buffer.getShort(start + PRODUCER_EPOCH_OFFSET);
    }

    public int baseSequence() {
        return buffer.getInt(start + BASE_SEQUENCE_OFFSET);
    }

    /** Whether an idempotent producer sent the batch: its producer id is set. */
    public boolean hasProducerId() {
        return producerId() > NO_PRODUCER_ID;
    }

    /**
     * The sequence number of the batch's last record: BaseSequence plus LastOffsetDelta, wrapping
     * past {@link Integer#MAX_VALUE} to 0 as producers number their records; {@link #NO_SEQUENCE}
     * when the batch has none.
     */
    public int lastSequence() {
        int base = baseSequence();
        return base == NO_SEQUENCE ? NO_SEQUENCE : incrementSequence(base, lastOffsetDelta());
    }

    /** {@code sequence + increment}, wrapping past {@link Integer#MAX_VALUE} to 0. */
    public static int incrementSequence(int sequence, int increment) {
        if (sequence > Integer.MAX_VALUE - increment) {
            return increment - (Integer.MAX_VALUE - sequence) - 1;
        }
        return sequence + increment;
    }

    public int recordCount() {
        return buffer.getInt(start + RECORDS_COUNT_OFFSET);
    }

    /**
     * The CRC-32C of Attributes through the end of the batch, as it should be stored. Throws
     * {@link CorruptRecordException} when Length points outside the buffer.
     */
    public long computeChecksum() {
        ensureWithinBuffer();
        CRC32C crc = new CRC32C();
        ByteBuffer covered = buffer.duplicate();
        covered.limit(start + sizeInBytes()).position(start + ATTRIBUTES_OFFSET);
        crc.update(covered);
        return crc.getValue();
    }

    private void ensureWithinBuffer() {
        if (!fitsBuffer()) {
            throw new CorruptRecordException("Record batch at index " + start + " does not fit its buffer");
        }
    }

    private boolean fitsBuffer() {
        int available = buffer.limit() - start;
        return available >= HEADER_SIZE && batchLength() >= MIN_LENGTH && batchLength() <= available - LOG_OVERHEAD;
    }

    /** Whether the batch fits its buffer and the stored CRC matches. */
    public boolean isValid() {
        return fitsBuffer() && checksum() == computeChecksum();
    }

    /**
     * Checks everything that can be checked without decompressing: the batch lies inside its
     * buffer, the magic, the length, the codec id, the record count against the offset delta,
     * and the CRC. Throws {@link CorruptRecordException} for damaged bytes and
     * {@link InvalidRecordException} for well-formed bytes that break the format's rules.
     */
    public void ensureValid() {
        ensureHeaderValid(buffer.limit() - start);
        if (!isValid()) {
            throw new CorruptRecordException("Record batch at offset " + baseOffset() + " has CRC " + checksum()
                + " but its bytes compute to " + computeChecksum());
        }
    }

    /**
     * What a batch already in a log must satisfy, where log compaction may have left fewer records
     * than its offset range (even none): the header checks of {@link #ensureReadableHeader} and the
     * CRC. Recovery, followers and the log cleaner check stored batches this way; what a producer
     * sends is checked by {@link #ensureValid()}.
     */
    public void ensureIntact() {
        ensureReadable(buffer.limit() - start);
        if (!isValid()) {
            throw new CorruptRecordException("Record batch at offset " + baseOffset() + " has CRC " + checksum()
                + " but its bytes compute to " + computeChecksum());
        }
    }

    /**
     * The header checks that reading the records needs, without {@link #ensureHeaderValid}'s rule
     * that the records fill the offset range; {@code available} is how many bytes from
     * {@link #start()} belong to the batch's source.
     */
    public void ensureReadableHeader(int available) {
        ensureReadable(available);
    }

    /**
     * The header checks of {@link #ensureValid()} without the CRC; {@code available} is how many
     * bytes from {@link #start()} belong to the batch's source.
     */
    public void ensureHeaderValid(int available) {
        ensureReadable(available);
        int count = recordCount();
        if (count <= 0 && !isControlBatch()) {
            throw new InvalidRecordException("Record batch at offset " + baseOffset() + " has record count " + count);
        }
        if (count > 0 && lastOffsetDelta() != count - 1) {
            throw new InvalidRecordException("Record batch at offset " + baseOffset() + " has " + count
                + " records but last offset delta " + lastOffsetDelta());
        }
    }

    /**
     * What reading records needs: the header and Length inside the source, magic 2, a known codec
     * and a record count that is not negative. Unlike {@link #ensureHeaderValid}, it accepts a
     * count below LastOffsetDelta + 1, which log compaction leaves behind.
     */
    private void ensureReadable(int available) {
        if (available < HEADER_SIZE) {
            throw new CorruptRecordException("Record batch is truncated: " + available + " bytes, a header needs " + HEADER_SIZE);
        }
        if (magic() != MAGIC) {
            throw new InvalidRecordException("Record batch has magic " + magic() + "; only magic " + MAGIC + " is supported");
        }
        int length = batchLength();
        if (length < MIN_LENGTH) {
            throw new CorruptRecordException("Record batch length " + length + " is below the minimum " + MIN_LENGTH);
        }
        if (length > available - LOG_OVERHEAD) {
            throw new CorruptRecordException("Record batch is truncated: length " + length + " but only "
                + (available - LOG_OVERHEAD) + " bytes follow");
        }
        compressionType();
        if (recordCount() < 0) {
            throw new InvalidRecordException("Record batch at offset " + baseOffset() + " has record count " + recordCount());
        }
    }

    /** The records of this batch; see {@link #records(int)}. Compressed batches may inflate to {@link #DEFAULT_MAX_RECORDS_BYTES}. */
    public RecordIterator records() {
        return records(DEFAULT_MAX_RECORDS_BYTES);
    }

    /**
     * The records of this batch. Uncompressed records are read where they lie; compressed ones are
     * first inflated, as a whole, into one new buffer of at most {@code maxRecordsBytes} bytes, and
     * read from there. The CRC is not checked here (call {@link #ensureValid()} for that), but
     * everything the iteration touches is: bytes that do not form the records the header claims
     * raise {@link InvalidRecordException} or its subclass {@link CorruptRecordException}, from
     * this method or from the iterator, and nothing else.
     */
    public RecordIterator records(int maxRecordsBytes) {
        return new RecordIterator(this, recordsBytes(maxRecordsBytes));
    }

    /**
     * The bytes of the batch's records, between the returned buffer's position and limit, with the
     * checks of {@link #records(int)} up to the iteration: uncompressed ones as a view of this batch's
     * buffer, compressed ones inflated into a new buffer. For readers that walk records on their own.
     */
    public ByteBuffer recordsBytes(int maxRecordsBytes) {
        ensureReadable(buffer.limit() - start);
        ByteBuffer records = buffer.duplicate();
        records.limit(start + sizeInBytes()).position(start + RECORDS_OFFSET);
        CompressionType compression = compressionType();
        // An empty section is an empty batch whatever the codec; anything else is inflated, so a
        // count of 0 over real records is caught as leftover bytes.
        if (compression == CompressionType.NONE || !records.hasRemaining()) {
            return records;
        }
        if ((long) recordCount() * Record.MIN_SIZE_IN_BYTES > maxRecordsBytes) {
            throw new CorruptRecordException("Record batch at offset " + baseOffset() + " claims " + recordCount()
                + " records, more than " + maxRecordsBytes + " bytes can hold");
        }
        return Compression.decompress(compression, records, maxRecordsBytes);
    }

    /** Rewrites BaseOffset in place; the CRC does not cover it. */
    public void setBaseOffset(long offset) {
        buffer.putLong(start + BASE_OFFSET_OFFSET, offset);
    }

    /** Rewrites PartitionLeaderEpoch in place; the CRC does not cover it. */
    public void setPartitionLeaderEpoch(int epoch) {
        buffer.putInt(start + PARTITION_LEADER_EPOCH_OFFSET, epoch);
    }

    /**
     * Stamps the broker's clock: sets the LogAppendTime bit and MaxTimestamp, then recomputes the
     * CRC. Records keep their deltas; readers report {@code timestamp} for every record.
     */
    public void setLogAppendTime(long timestamp) {
        short attributes = (short) (attributes() | TIMESTAMP_TYPE_MASK);
        buffer.putShort(start + ATTRIBUTES_OFFSET, attributes);
        buffer.putLong(start + MAX_TIMESTAMP_OFFSET, timestamp);
        ByteUtils.writeUnsignedInt(buffer, start + CRC_OFFSET, computeChecksum());
    }

    /**
     * Clears ProducerId, ProducerEpoch and BaseSequence (a batch that no idempotent producer sent, as
     * a copy into another cluster must be: there the source's producer ids mean nothing, or another
     * producer's), then recomputes the CRC. Check {@link #isValid()} first: the new CRC vouches for
     * whatever the bytes hold. Not for transactional batches, which need their producer id.
     */
    public void clearProducerState() {
        setProducerState(NO_PRODUCER_ID, NO_PRODUCER_EPOCH, NO_SEQUENCE);
    }

    /**
     * Rewrites ProducerId, ProducerEpoch and BaseSequence in place, then recomputes the CRC: how an
     * idempotent producer stamps a batch that was built before its sequence was known, or numbers it
     * again under a new epoch. Check {@link #isValid()} first, as for {@link #clearProducerState()}.
     * Not for transactional batches, whose producer id belongs to their transaction.
     */
    public void setProducerState(long producerId, short producerEpoch, int baseSequence) {
        if (isTransactional()) {
            throw new IllegalStateException("A transactional batch keeps its producer id: " + this);
        }
        buffer.putLong(start + PRODUCER_ID_OFFSET, producerId);
        buffer.putShort(start + PRODUCER_EPOCH_OFFSET, producerEpoch);
        buffer.putInt(start + BASE_SEQUENCE_OFFSET, baseSequence);
        ByteUtils.writeUnsignedInt(buffer, start + CRC_OFFSET, computeChecksum());
    }

    /**
     * The batch's bytes as a buffer of their own (shared content, independent position and
     * limit), positioned at BaseOffset.
     */
    public ByteBuffer slice() {
        ByteBuffer copy = buffer.duplicate();
        copy.limit(start + sizeInBytes()).position(start);
        return copy.slice();
    }

    @Override
    public String toString() {
        return "RecordBatch(baseOffset=" + baseOffset() + ", lastOffset=" + lastOffset() + ", size=" + sizeInBytes()
            + ", count=" + recordCount() + ", maxTimestamp=" + maxTimestamp() + ")";
    }
}
