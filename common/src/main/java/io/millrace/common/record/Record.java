package io.millrace.common.record;

import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.utils.ByteUtils;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One record inside a batch, as a flyweight view over the bytes it was read from: for an
 * uncompressed batch the batch's own buffer, for a compressed one the buffer its records were
 * inflated into. Key, value and header positions are found when the record is read (which also
 * validates them); {@link #key()} and {@link #value()} then cut slices without copying.
 *
 * <pre>
 * Record =&gt;
 *   Length          varint  bytes after this field
 *   Attributes      int8    unused, 0
 *   TimestampDelta  varlong timestamp minus the batch's BaseTimestamp
 *   OffsetDelta     varint  offset minus the batch's BaseOffset
 *   KeyLength       varint  -1 for a null key
 *   Key             bytes
 *   ValueLength     varint  -1 for a null value
 *   Value           bytes
 *   HeadersCount    varint
 *   Headers         [HeaderKeyLength varint, HeaderKey UTF-8, HeaderValueLength varint (-1 null), HeaderValue]
 * </pre>
 *
 * The smallest record is 7 bytes: a one-byte Length and six one-byte fields (null key, null
 * value, no headers). In a LogAppendTime batch every record's timestamp is the batch's
 * MaxTimestamp; the deltas keep the producer's values but are not reported.
 *
 * <p>Instances come from {@link RecordIterator}; one may be refilled with
 * {@link RecordIterator#nextInto(Record)}. Not thread-safe.
 */
public final class Record {

    /** Length varint plus six one-byte fields. */
    public static final int MIN_SIZE_IN_BYTES = 7;
    private static final int MIN_BODY_SIZE = MIN_SIZE_IN_BYTES - 1;
    /** A header takes at least its key length and its value length, one byte each. */
    private static final int MIN_HEADER_SIZE = 2;
    private static final Header[] NO_HEADERS = new Header[0];

    private ByteBuffer data;
    private int sizeInBytes;
    private long offset;
    private int offsetDelta;
    private long timestamp;
    private byte attributes;
    private int keyIndex;
    private int keySize;
    private int valueIndex;
    private int valueSize;
    private int headersIndex;
    private int headerCount;
    private int endIndex;

    Record() {
    }

    public long offset() {
        return offset;
    }

    /** The producer's CreateTime, or the batch's LogAppendTime for every record of such a batch. */
    public long timestamp() {
        return timestamp;
    }

    public byte attributes() {
        return attributes;
    }

    /** The whole record in bytes, its Length varint included. */
    public int sizeInBytes() {
        return sizeInBytes;
    }

    public boolean hasKey() {
        return keySize >= 0;
    }

    /** Key length in bytes, -1 for a null key. */
    public int keySize() {
        return keySize;
    }

    /**
     * The key as a slice of the underlying bytes (shared, not copied; do not write to it), or null.
     * Each call returns a new slice with position 0.
     */
    public ByteBuffer key() {
        return keySize < 0 ? null : data.slice(keyIndex, keySize);
    }

    public boolean hasValue() {
        return valueSize >= 0;
    }

    /** Value length in bytes, -1 for a null value. */
    public int valueSize() {
        return valueSize;
    }

    /** The value as a slice of the underlying bytes (shared, not copied; do not write to it), or null. */
    public ByteBuffer value() {
        return valueSize < 0 ? null : data.slice(valueIndex, valueSize);
    }

    public int headerCount() {
        return headerCount;
    }

    /** The headers, decoded into new objects on each call (keys as UTF-8, values copied). */
    public Header[] headers() {
        if (headerCount == 0) {
            return NO_HEADERS;
        }
        ByteBuffer in = data.duplicate().position(headersIndex);
        Header[] headers = new Header[headerCount];
        for (int i = 0; i < headerCount; i++) {
            String key = new String(bytes(in, ByteUtils.readVarint(in)), StandardCharsets.UTF_8);
            int valueLength = ByteUtils.readVarint(in);
            headers[i] = new Header(key, valueLength < 0 ? null : bytes(in, valueLength));
        }
        return headers;
    }

    private static byte[] bytes(ByteBuffer in, int length) {
        byte[] bytes = new byte[length];
        in.get(bytes);
        return bytes;
    }

    /**
     * Reads the record at the iterator's cursor and advances the cursor past it. Everything is
     * checked against the cursor's limit, the end of the batch's records. Hot path: no allocation.
     */
    void readFrom(RecordIterator batch) {
        ByteBuffer in = batch.cursor;
        int start = in.position();
        int bodySize = ByteUtils.readVarint(in);
        if (bodySize < MIN_BODY_SIZE || bodySize > in.remaining()) {
            throw new CorruptRecordException("Record at byte " + start + " has length " + bodySize + " but "
                + in.remaining() + " bytes follow");
        }
        int end = in.position() + bodySize;
        int limit = in.limit();
        in.limit(end);
        try {
            readBody(in, batch);
            if (in.hasRemaining()) {
                throw new CorruptRecordException("Record at byte " + start + " has " + in.remaining()
                    + " bytes after its headers");
            }
        } finally {
            in.limit(limit);
        }
        this.data = batch.data;
        this.sizeInBytes = end - start;
        this.endIndex = end;
    }

    private void readBody(ByteBuffer in, RecordIterator batch) {
        attributes = in.get();
        long timestampDelta = ByteUtils.readVarlong(in);
        timestamp = batch.logAppendTime ? batch.maxTimestamp : batch.baseTimestamp + timestampDelta;
        offsetDelta = ByteUtils.readVarint(in);
        offset = batch.baseOffset + offsetDelta;
        keySize = readLength(in, "key");
        keyIndex = skip(in, keySize);
        valueSize = readLength(in, "value");
        valueIndex = skip(in, valueSize);
        headerCount = ByteUtils.readVarint(in);
        if (headerCount < 0 || headerCount > in.remaining() / MIN_HEADER_SIZE) {
            throw new CorruptRecordException("Record has header count " + headerCount + " in " + in.remaining() + " bytes");
        }
        headersIndex = in.position();
        for (int i = 0; i < headerCount; i++) {
            int keyLength = ByteUtils.readVarint(in);
            if (keyLength < 0) {
                throw new InvalidRecordException("Record header has a negative key length " + keyLength);
            }
            skip(in, keyLength);
            skip(in, readLength(in, "header value"));
        }
    }

    /** A length varint: -1 means null, anything more negative is invalid. */
    private static int readLength(ByteBuffer in, String what) {
        int length = ByteUtils.readVarint(in);
        if (length < -1) {
            throw new InvalidRecordException("Record has a negative " + what + " length " + length);
        }
        return length;
    }

    /** Steps over {@code length} bytes (none for -1) and returns where they start. */
    private static int skip(ByteBuffer in, int length) {
        int index = in.position();
        if (length > in.remaining()) {
            throw new CorruptRecordException("Record field of " + length + " bytes overruns the record by "
                + (length - in.remaining()) + " bytes");
        }
        if (length > 0) {
            in.position(index + length);
        }
        return index;
    }

    /**
     * Copies the record into another batch at {@code out}'s position with new deltas: its Length,
     * TimestampDelta and OffsetDelta are written again, everything from KeyLength on is copied byte for
     * byte. Returns the bytes written; {@link #sizeWithDeltas} says how many beforehand.
     */
    int writeWithDeltas(ByteBuffer out, int newOffsetDelta, long newTimestampDelta) {
        int tail = tailIndex();
        int tailSize = endIndex - tail;
        int bodySize = 1 + ByteUtils.sizeOfVarlong(newTimestampDelta) + ByteUtils.sizeOfVarint(newOffsetDelta) + tailSize;
        int start = out.position();
        ByteUtils.writeVarint(bodySize, out);
        out.put(attributes);
        ByteUtils.writeVarlong(newTimestampDelta, out);
        ByteUtils.writeVarint(newOffsetDelta, out);
        out.put(out.position(), data, tail, tailSize);
        out.position(out.position() + tailSize);
        return out.position() - start;
    }

    /** The size {@link #writeWithDeltas} gives the record. */
    int sizeWithDeltas(int newOffsetDelta, long newTimestampDelta) {
        int bodySize = 1 + ByteUtils.sizeOfVarlong(newTimestampDelta) + ByteUtils.sizeOfVarint(newOffsetDelta)
            + endIndex - tailIndex();
        return ByteUtils.sizeOfVarint(bodySize) + bodySize;
    }

    /** Where KeyLength starts: what follows the deltas, the same in any batch. */
    private int tailIndex() {
        return keyIndex - ByteUtils.sizeOfVarint(keySize);
    }

    /** Offset minus the batch's BaseOffset. */
    int offsetDelta() {
        return offsetDelta;
    }

    /** The size of a record after its Length field. */
    static int sizeOfBody(int offsetDelta, long timestampDelta, ByteBuffer key, ByteBuffer value, Header[] headers) {
        return sizeOfBody(offsetDelta, timestampDelta, key == null ? -1 : key.remaining(), value == null ? -1 : value.remaining(),
            headers);
    }

    /** As {@link #sizeOfBody(int, long, ByteBuffer, ByteBuffer, Header[])}, a null key or value given as size -1. */
    static int sizeOfBody(int offsetDelta, long timestampDelta, int keySize, int valueSize, Header[] headers) {
        int size = 1 + ByteUtils.sizeOfVarlong(timestampDelta) + ByteUtils.sizeOfVarint(offsetDelta);
        size += sizeOfBytes(keySize) + sizeOfBytes(valueSize);
        size += ByteUtils.sizeOfVarint(headers.length);
        for (Header header : headers) {
            size += sizeOfBytes(utf8Length(header.key()));
            byte[] headerValue = header.value();
            size += sizeOfBytes(headerValue == null ? -1 : headerValue.length);
        }
        return size;
    }

    /**
     * Writes a whole record (Length first) into {@code out} at {@code index}, which has room, and
     * returns the index after it. The producer's path: its keys and values are arrays and its batches
     * heap buffers, so the fields go in by index, with no bounds check or buffer view per field.
     */
    static int write(byte[] out, int index, int bodySize, int offsetDelta, long timestampDelta,
                     byte[] key, byte[] value, Header[] headers) {
        int i = ByteUtils.writeVarint(bodySize, out, index);
        out[i++] = 0;
        i = ByteUtils.writeVarlong(timestampDelta, out, i);
        i = ByteUtils.writeVarint(offsetDelta, out, i);
        i = writeBytes(key, out, i);
        i = writeBytes(value, out, i);
        i = ByteUtils.writeVarint(headers.length, out, i);
        for (Header header : headers) {
            i = writeBytes(header.key().getBytes(StandardCharsets.UTF_8), out, i);
            i = writeBytes(header.value(), out, i);
        }
        return i;
    }

    private static int writeBytes(byte[] bytes, byte[] out, int index) {
        if (bytes == null) {
            return ByteUtils.writeVarint(-1, out, index);
        }
        int i = ByteUtils.writeVarint(bytes.length, out, index);
        System.arraycopy(bytes, 0, out, i, bytes.length);
        return i + bytes.length;
    }

    /** Writes a whole record (Length first) at the buffer's position; the buffer has room. */
    static void write(ByteBuffer out, int bodySize, int offsetDelta, long timestampDelta,
                      ByteBuffer key, ByteBuffer value, Header[] headers) {
        ByteUtils.writeVarint(bodySize, out);
        out.put((byte) 0);
        ByteUtils.writeVarlong(timestampDelta, out);
        ByteUtils.writeVarint(offsetDelta, out);
        writeBytes(key, out);
        writeBytes(value, out);
        ByteUtils.writeVarint(headers.length, out);
        for (Header header : headers) {
            byte[] headerKey = header.key().getBytes(StandardCharsets.UTF_8);
            ByteUtils.writeVarint(headerKey.length, out);
            out.put(headerKey);
            byte[] headerValue = header.value();
            if (headerValue == null) {
                ByteUtils.writeVarint(-1, out);
            } else {
                ByteUtils.writeVarint(headerValue.length, out);
                out.put(headerValue);
            }
        }
    }

    private static int sizeOfBytes(int size) {
        return size < 0 ? ByteUtils.sizeOfVarint(-1) : ByteUtils.sizeOfVarint(size) + size;
    }

    private static void writeBytes(ByteBuffer bytes, ByteBuffer out) {
        if (bytes == null) {
            ByteUtils.writeVarint(-1, out);
            return;
        }
        ByteUtils.writeVarint(bytes.remaining(), out);
        out.put(bytes.duplicate());
    }

    private static int utf8Length(String s) {
        return s.getBytes(StandardCharsets.UTF_8).length;
    }

    @Override
    public String toString() {
        return "Record(offset=" + offset + ", timestamp=" + timestamp + ", key=" + keySize + " bytes, value="
            + valueSize + " bytes, headers=" + headerCount + ")";
    }
}
