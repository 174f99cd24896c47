package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.record.Header;
import io.millrace.common.record.Record;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One fetched record, read where it lies in the fetched bytes: nothing is copied and nothing is
 * allocated per record. Its fields are decoded when first asked for (the layout is
 * {@link Record}'s): stepping over a record reads only its Length; offset, timestamp, key and value
 * read the TimestampDelta, OffsetDelta, KeyLength and ValueLength varints once, and the headers are
 * decoded only by {@link #headers()}.
 *
 * <p>A view is refilled by the cursor that handed it out ({@link RecordViews#advance()}): it is
 * valid until that cursor advances, and so are the positions it gave and the slices it made. Copy
 * what must outlive it: once the cursor has left a response, the buffer it lay in is reused for a
 * later one. The buffer may be a direct one; read it with gets, never through {@code array()}.
 * The key and value are given as a position and a length in {@link #buffer()}, to be read with
 * absolute gets ({@code buffer().get(valuePosition() + i)}, {@code get(int, byte[])}), or as a slice
 * from {@link #key()} and {@link #value()} (a small buffer object, still no copy).
 *
 * <p>The batch's CRC was checked before its first record was handed out (unless {@code check.crcs}
 * is false). A view checks what it decodes: a length that runs past its record raises
 * {@link CorruptRecordException}. Not thread-safe.
 */
public final class RecordView {

    private static final int MIN_BODY_SIZE = Record.MIN_SIZE_IN_BYTES - 1;
    private static final int MIN_HEADER_SIZE = 2;
    private static final Header[] NO_HEADERS = new Header[0];

    private final TopicPartition partition;
    /** The batch's records (the fetched bytes when uncompressed); read with absolute gets only. */
    private ByteBuffer data;
    /** What {@link #buffer()} hands out: a read-only twin of {@code data}, made when first asked for. */
    private ByteBuffer exposed;
    private long baseOffset;
    private long baseTimestamp;
    /** Whether the batch is stamped with LogAppendTime: every record then reports its MaxTimestamp. */
    private boolean logAppendTime;
    private long maxTimestamp;
    /** Index of the record's Attributes, just after its Length. */
    private int bodyStart;
    /** Index just past the record. */
    private int end;
    /** Where the next varint is read. */
    private int scan;
    private boolean decoded;
    private long timestampDelta;
    private int offsetDelta;
    private int keyIndex;
    private int keySize;
    private int valueIndex;
    private int valueSize;
    private int headersIndex;

    RecordView(TopicPartition partition) {
        this.partition = partition;
    }

    /** Points the view at a new batch whose records lie in {@code records}. */
    void startBatch(ByteBuffer records, long baseOffset, long baseTimestamp, boolean logAppendTime, long maxTimestamp) {
        this.data = records;
        this.exposed = null;
        this.baseOffset = baseOffset;
        this.baseTimestamp = baseTimestamp;
        this.logAppendTime = logAppendTime;
        this.maxTimestamp = maxTimestamp;
    }

    /**
     * Moves to the record at {@code position}, reading its Length only, and returns the index just
     * past it. Hot path: no allocation.
     */
    int readAt(int position) {
        scan = position;
        int length;
        try {
            length = varint();
        } catch (IndexOutOfBoundsException e) {
            throw new CorruptRecordException("Record at byte " + position + " has a Length running past its batch");
        }
        if (length < MIN_BODY_SIZE || length > data.limit() - scan) {
            throw new CorruptRecordException("Record at byte " + position + " has length " + length + " but "
                + (data.limit() - scan) + " bytes follow");
        }
        bodyStart = scan;
        end = scan + length;
        decoded = false;
        return end;
    }

    public TopicPartition partition() {
        return partition;
    }

    public long offset() {
        decode();
        return baseOffset + offsetDelta;
    }

    /** The producer's CreateTime, or the batch's LogAppendTime for every record of such a batch. */
    public long timestamp() {
        if (logAppendTime) {
            return maxTimestamp;
        }
        decode();
        return baseTimestamp + timestampDelta;
    }

    /** The whole record in bytes, its Length varint included. */
    public int sizeInBytes() {
        int body = end - bodyStart;
        return body + (body < 64 ? 1 : body < 8192 ? 2 : body < 1048576 ? 3 : body < 134217728 ? 4 : 5);
    }

    /**
     * The bytes {@link #keyPosition()} and {@link #valuePosition()} index: read-only, shared by the
     * records of a batch (of a whole fetch when uncompressed). Read it with absolute gets; its
     * position and limit say nothing about this record.
     */
    public ByteBuffer buffer() {
        if (exposed == null) {
            exposed = data.asReadOnlyBuffer();
        }
        return exposed;
    }

    /** Key length in bytes, -1 for a null key. */
    public int keyLength() {
        decode();
        return keySize;
    }

    /** Index of the key's first byte in {@link #buffer()}. */
    public int keyPosition() {
        decode();
        return keyIndex;
    }

    /** Value length in bytes, -1 for a null value. */
    public int valueLength() {
        decode();
        return valueSize;
    }

    /** Index of the value's first byte in {@link #buffer()}. */
    public int valuePosition() {
        decode();
        return valueIndex;
    }

    /** The key as a read-only slice (position 0, nothing copied), or null; valid as the view is. */
    public ByteBuffer key() {
        decode();
        return keySize < 0 ? null : buffer().slice(keyIndex, keySize);
    }

    /** The value as a read-only slice (position 0, nothing copied), or null; valid as the view is. */
    public ByteBuffer value() {
        decode();
        return valueSize < 0 ? null : buffer().slice(valueIndex, valueSize);
    }

    /** The headers, decoded into new objects on each call (keys as UTF-8, values copied). */
    public Header[] headers() {
        decode();
        scan = headersIndex;
        try {
            int count = varint();
            if (count < 0 || count > (end - scan) / MIN_HEADER_SIZE) {
                throw new CorruptRecordException("Record has header count " + count + " in " + (end - scan) + " bytes");
            }
            Header[] headers = count == 0 ? NO_HEADERS : new Header[count];
            for (int i = 0; i < count; i++) {
                int keyLength = varint();
                if (keyLength < 0) {
                    throw new InvalidRecordException("Record header has a negative key length " + keyLength);
                }
                String key = new String(copy(keyLength), StandardCharsets.UTF_8);
                int valueLength = length("header value");
                headers[i] = new Header(key, valueLength < 0 ? null : copy(valueLength));
            }
            return headers;
        } catch (IndexOutOfBoundsException e) {
            throw overrun();
        }
    }

    /** Reads TimestampDelta through ValueLength, once per record. Hot path: no allocation. */
    private void decode() {
        if (decoded) {
            return;
        }
        scan = bodyStart + 1; // Attributes: unused in v2 records
        try {
            timestampDelta = varlong();
            offsetDelta = varint();
            keySize = length("key");
            keyIndex = step(keySize);
            valueSize = length("value");
            valueIndex = step(valueSize);
        } catch (IndexOutOfBoundsException e) {
            throw overrun();
        }
        if (scan >= end) { // HeadersCount takes at least a byte
            throw overrun();
        }
        headersIndex = scan;
        decoded = true;
    }

    /** A length varint: -1 means null, anything more negative is invalid. */
    private int length(String what) {
        int length = varint();
        if (length < -1) {
            throw new InvalidRecordException("Record at offset delta " + offsetDelta + " has a negative " + what
                + " length " + length);
        }
        return length;
    }

    /** Steps over {@code length} bytes (none for -1) inside the record and returns where they start. */
    private int step(int length) {
        int index = scan;
        if (length > end - index) {
            throw overrun();
        }
        if (length > 0) {
            scan = index + length;
        }
        return index;
    }

    private byte[] copy(int length) {
        byte[] bytes = new byte[length];
        data.get(step(length), bytes);
        return bytes;
    }

    private CorruptRecordException overrun() {
        return new CorruptRecordException("Record at byte " + bodyStart + " of the batch at offset " + baseOffset
            + " has fields running past its length " + (end - bodyStart));
    }

    /** A zig-zag varint at {@code scan}; most record fields take one byte. */
    private int varint() {
        byte first = data.get(scan++);
        if (first >= 0) {
            return (first >>> 1) ^ -(first & 1);
        }
        int raw = first & 0x7f;
        for (int shift = 7; ; shift += 7) {
            if (shift > 28) {
                throw new CorruptRecordException("Varint is longer than 5 bytes");
            }
            byte b = data.get(scan++);
            raw |= (b & 0x7f) << shift;
            if (b >= 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
    }

    /** A zig-zag varlong at {@code scan}. */
    private long varlong() {
        byte first = data.get(scan++);
        if (first >= 0) {
            return (first >>> 1) ^ -(first & 1);
        }
        long raw = first & 0x7f;
        for (int shift = 7; ; shift += 7) {
            if (shift > 63) {
                throw new CorruptRecordException("Varlong is longer than 10 bytes");
            }
            byte b = data.get(scan++);
            raw |= (long) (b & 0x7f) << shift;
            if (b >= 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
    }

    @Override
    public String toString() {
        return "RecordView(" + partition + "@" + offset() + ", timestamp=" + timestamp() + ", key=" + keyLength()
            + " bytes, value=" + valueLength() + " bytes)";
    }
}
