package io.millrace.common.record;

import io.millrace.common.utils.ByteUtils;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * One record inside a batch.
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
 */
public final class Record {

    private Record() {
    }

    /** The size of a record after its Length field. */
    static int sizeOfBody(int offsetDelta, long timestampDelta, ByteBuffer key, ByteBuffer value, Header[] headers) {
        int size = 1 + ByteUtils.sizeOfVarlong(timestampDelta) + ByteUtils.sizeOfVarint(offsetDelta);
        size += sizeOfBytes(key) + sizeOfBytes(value);
        size += ByteUtils.sizeOfVarint(headers.length);
        for (Header header : headers) {
            int keyLength = utf8Length(header.key());
            size += ByteUtils.sizeOfVarint(keyLength) + keyLength;
            byte[] headerValue = header.value();
            size += headerValue == null ? ByteUtils.sizeOfVarint(-1) : ByteUtils.sizeOfVarint(headerValue.length) + headerValue.length;
        }
        return size;
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

    private static int sizeOfBytes(ByteBuffer bytes) {
        return bytes == null ? ByteUtils.sizeOfVarint(-1) : ByteUtils.sizeOfVarint(bytes.remaining()) + bytes.remaining();
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
}
