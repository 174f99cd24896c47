package io.millrace.hadoop.input;

import java.io.EOFException;
import java.io.IOException;
import java.util.List;
import org.apache.avro.Schema;

/**
 * A cursor over one Avro binary datum that checks it against its writer's schema without building
 * anything: every varint well formed, every length non-negative and inside the bytes, every union branch
 * and enum symbol in range, and, once the datum is walked, no bytes left over. These are the checks that
 * make Avro's {@code GenericDatumReader} (with the {@code isEnd} check of the registry's deserializer)
 * refuse a value, so a datum this cursor walks to its end is one that deserializer decodes, and its bytes
 * are a valid datum of the schema as they are. Strings are not checked to be UTF-8: nor are they when decoded.
 * Reused for one datum after another; not thread-safe.
 */
final class AvroBinary {

    /** The most items an array or map may hold: what Avro's decoder allows. */
    private static final long MAX_ITEMS = Integer.MAX_VALUE - 8L;

    private byte[] buf;
    private int pos;
    private int limit;

    /** Points the cursor at {@code length} bytes of {@code bytes} from {@code offset}. */
    void reset(byte[] bytes, int offset, int length) {
        buf = bytes;
        pos = offset;
        limit = offset + length;
    }

    /** Whether the whole datum was walked. */
    boolean atEnd() {
        return pos == limit;
    }

    /** Walks one value of {@code schema}. */
    void skip(Schema schema) throws IOException {
        switch (schema.getType()) {
            case NULL -> { }
            case BOOLEAN -> advance(1);
            case INT -> readInt();
            case LONG -> readLong();
            case FLOAT -> advance(4);
            case DOUBLE -> advance(8);
            case STRING, BYTES -> advance(readLength());
            case FIXED -> advance(schema.getFixedSize());
            case ENUM -> index(schema.getEnumSymbols().size(), "enum symbol");
            case UNION -> skip(branch(schema));
            case RECORD -> skipFields(schema.getFields());
            case ARRAY -> skipItems(schema.getElementType(), false);
            case MAP -> skipItems(schema.getValueType(), true);
            default -> throw new IOException("Unknown Avro type " + schema.getType());
        }
    }

    void skipFields(List<Schema.Field> fields) throws IOException {
        for (int i = 0, n = fields.size(); i < n; i++) {
            skip(fields.get(i).schema());
        }
    }

    /** The branch of {@code union} the next value is written in (reads its index). */
    Schema branch(Schema union) throws IOException {
        return union.getTypes().get(branchIndex(union));
    }

    /** The index of the branch of {@code union} the next value is written in (reads it). */
    int branchIndex(Schema union) throws IOException {
        return index(union.getTypes().size(), "union branch");
    }

    /** Whether a value of {@code schema} is a number ({@link #readNumber} reads it). */
    static boolean isNumber(Schema schema) {
        Schema.Type type = schema.getType();
        return type == Schema.Type.INT || type == Schema.Type.LONG || type == Schema.Type.FLOAT || type == Schema.Type.DOUBLE;
    }

    /** A number of {@code schema} ({@link #isNumber}), as {@link Number#longValue} gives its decoded value. */
    long readNumber(Schema schema) throws IOException {
        return switch (schema.getType()) {
            case INT -> readInt();
            case LONG -> readLong();
            case FLOAT -> (long) Float.intBitsToFloat(readFixedInt());
            case DOUBLE -> (long) Double.longBitsToDouble(readFixedInt() & 0xffffffffL | (long) readFixedInt() << 32);
            default -> throw new IllegalArgumentException("Not a number: " + schema);
        };
    }

    private void skipItems(Schema item, boolean map) throws IOException {
        long total = 0;
        for (long count = readBlockCount(); count != 0; count = readBlockCount()) {
            total += count;
            if (total > MAX_ITEMS) {
                throw new IOException("Malformed data: more than " + MAX_ITEMS + " items in an array or map");
            }
            for (long i = 0; i < count; i++) {
                if (map) {
                    advance(readLength());
                }
                skip(item);
            }
        }
    }

    /** A block's item count; a negative count is followed by the block's size in bytes, which is not needed. */
    private long readBlockCount() throws IOException {
        long count = readLong();
        if (count < 0) {
            readLong();
            count = -count;
        }
        return count;
    }

    private int index(int size, String what) throws IOException {
        int index = readInt();
        if (index < 0 || index >= size) {
            throw new IOException("Malformed data: " + what + " " + index + " of " + size);
        }
        return index;
    }

    private long readLength() throws IOException {
        long length = readLong();
        if (length < 0) {
            throw new IOException("Malformed data: length is negative: " + length);
        }
        return length;
    }

    private void advance(long bytes) throws EOFException {
        if (bytes > limit - pos) {
            throw new EOFException("The datum ends before its value: " + bytes + " bytes needed, " + (limit - pos) + " left");
        }
        pos += (int) bytes;
    }

    /** A zig-zag varint of at most 5 bytes, as Avro's decoder reads an int. */
    int readInt() throws IOException {
        int n = 0;
        for (int shift = 0; ; shift += 7) {
            if (shift == 35) {
                throw new IOException("Invalid int encoding");
            }
            int b = nextByte();
            n ^= (b & 0x7f) << shift;
            if (b < 0x80) {
                return (n >>> 1) ^ -(n & 1);
            }
        }
    }

    /** A zig-zag varint of at most 10 bytes. */
    long readLong() throws IOException {
        long n = 0;
        for (int shift = 0; ; shift += 7) {
            if (shift == 70) {
                throw new IOException("Invalid long encoding");
            }
            int b = nextByte();
            n ^= (b & 0x7fL) << shift;
            if (b < 0x80) {
                return (n >>> 1) ^ -(n & 1);
            }
        }
    }

    private int readFixedInt() throws EOFException {
        advance(4);
        int p = pos - 4;
        return buf[p] & 0xff | (buf[p + 1] & 0xff) << 8 | (buf[p + 2] & 0xff) << 16 | (buf[p + 3] & 0xff) << 24;
    }

    private int nextByte() throws EOFException {
        if (pos >= limit) {
            throw new EOFException("The datum ends inside a number");
        }
        return buf[pos++] & 0xff;
    }
}
