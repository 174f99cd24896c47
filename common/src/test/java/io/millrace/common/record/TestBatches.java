package io.millrace.common.record;

import io.millrace.common.compress.Compression;
import io.millrace.common.utils.ByteBufferOutputStream;
import io.millrace.common.utils.ByteUtils;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Hand-made batches for tests: a valid header (length, count and CRC right unless told otherwise)
 * around whatever record bytes a test wants, compressed with any codec.
 */
final class TestBatches {

    static final long BASE_OFFSET = 100L;
    static final long BASE_TIMESTAMP = 1_700_000_000_000L;

    private TestBatches() {
    }

    /** A batch around raw (uncompressed) record bytes, compressed with {@code compression}. */
    static ByteBuffer batch(CompressionType compression, int count, int lastOffsetDelta, byte[] records) {
        ByteBufferOutputStream out = new ByteBufferOutputStream(RecordBatch.HEADER_SIZE + records.length + 64);
        out.position(RecordBatch.RECORDS_OFFSET);
        try (OutputStream codec = compression == CompressionType.NONE ? null : Compression.wrapForOutput(compression, out)) {
            if (codec == null) {
                out.write(records, 0, records.length);
            } else {
                codec.write(records);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ByteBuffer buffer = out.buffer();
        int size = buffer.position();
        buffer.putLong(RecordBatch.BASE_OFFSET_OFFSET, BASE_OFFSET);
        buffer.putInt(RecordBatch.LENGTH_OFFSET, size - RecordBatch.LOG_OVERHEAD);
        buffer.putInt(RecordBatch.PARTITION_LEADER_EPOCH_OFFSET, -1);
        buffer.put(RecordBatch.MAGIC_OFFSET, RecordBatch.MAGIC);
        buffer.putShort(RecordBatch.ATTRIBUTES_OFFSET, (short) compression.id);
        buffer.putInt(RecordBatch.LAST_OFFSET_DELTA_OFFSET, lastOffsetDelta);
        buffer.putLong(RecordBatch.BASE_TIMESTAMP_OFFSET, BASE_TIMESTAMP);
        buffer.putLong(RecordBatch.MAX_TIMESTAMP_OFFSET, BASE_TIMESTAMP);
        buffer.putLong(RecordBatch.PRODUCER_ID_OFFSET, -1L);
        buffer.putShort(RecordBatch.PRODUCER_EPOCH_OFFSET, (short) -1);
        buffer.putInt(RecordBatch.BASE_SEQUENCE_OFFSET, -1);
        buffer.putInt(RecordBatch.RECORDS_COUNT_OFFSET, count);
        ByteBuffer batch = ByteBuffer.wrap(Arrays.copyOf(buffer.array(), size));
        fixCrc(batch, 0);
        return batch;
    }

    /** Recomputes the CRC of the batch at {@code start}, so a mutation reaches the record parser. */
    static void fixCrc(ByteBuffer buffer, int start) {
        RecordBatch batch = RecordBatch.wrap(buffer, start);
        ByteUtils.writeUnsignedInt(buffer, start + RecordBatch.CRC_OFFSET, batch.computeChecksum());
    }

    /** The records section of a batch built uncompressed. */
    static byte[] recordsOf(ByteBuffer uncompressedBatch) {
        return Arrays.copyOfRange(bytes(uncompressedBatch), RecordBatch.RECORDS_OFFSET, uncompressedBatch.remaining());
    }

    static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /** Writes record fields by hand, for records no builder would write. */
    static final class RecordBytes {
        private final ByteBuffer body;

        RecordBytes() {
            this(256);
        }

        RecordBytes(int capacity) {
            body = ByteBuffer.allocate(capacity);
        }

        RecordBytes varint(int value) {
            ByteUtils.writeVarint(value, body);
            return this;
        }

        RecordBytes varlong(long value) {
            ByteUtils.writeVarlong(value, body);
            return this;
        }

        RecordBytes raw(int... bytes) {
            for (int b : bytes) {
                body.put((byte) b);
            }
            return this;
        }

        RecordBytes bytes(byte[] bytes) {
            varint(bytes.length);
            body.put(bytes);
            return this;
        }

        /** Attributes, timestamp delta and offset delta, the fields before the key. */
        static RecordBytes start(long timestampDelta, int offsetDelta) {
            return start(256, timestampDelta, offsetDelta);
        }

        private static RecordBytes start(int capacity, long timestampDelta, int offsetDelta) {
            return new RecordBytes(capacity).raw(0).varlong(timestampDelta).varint(offsetDelta);
        }

        /** A well-formed record: null key, the value, no headers. */
        static byte[] simple(int offsetDelta, byte[] value) {
            return start(value.length + 32, 0, offsetDelta).varint(-1).bytes(value).varint(0).framed();
        }

        /** The body with its Length varint in front: a whole record. */
        byte[] framed() {
            byte[] content = Arrays.copyOf(body.array(), body.position());
            ByteBuffer record = ByteBuffer.allocate(content.length + 5);
            ByteUtils.writeVarint(content.length, record);
            record.put(content);
            return Arrays.copyOf(record.array(), record.position());
        }

        /** The bytes written, without a Length in front. */
        byte[] unframed() {
            return Arrays.copyOf(body.array(), body.position());
        }
    }

    static byte[] concat(byte[]... parts) {
        int length = 0;
        for (byte[] part : parts) {
            length += part.length;
        }
        byte[] all = new byte[length];
        int position = 0;
        for (byte[] part : parts) {
            System.arraycopy(part, 0, all, position, part.length);
            position += part.length;
        }
        return all;
    }
}
