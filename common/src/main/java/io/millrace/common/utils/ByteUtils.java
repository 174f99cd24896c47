package io.millrace.common.utils;

import io.millrace.common.errors.CorruptRecordException;
import java.nio.ByteBuffer;

/**
 * Zig-zag varints (the Protocol Buffers encoding Kafka's record format uses) and unsigned reads.
 * Readers throw {@link CorruptRecordException} on an over-long or truncated varint, so callers
 * parsing untrusted bytes need no other error handling.
 */
public final class ByteUtils {

    private ByteUtils() {
    }

    /** Reads a zig-zag encoded 32-bit varint at the buffer's position and advances it. */
    public static int readVarint(ByteBuffer buffer) {
        int raw = 0;
        int shift = 0;
        while (true) {
            if (!buffer.hasRemaining()) {
                throw new CorruptRecordException("Varint runs past the end of its buffer");
            }
            byte b = buffer.get();
            raw |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
            shift += 7;
            if (shift > 28) {
                throw new CorruptRecordException("Varint is longer than 5 bytes");
            }
        }
    }

    /** Reads a zig-zag encoded 64-bit varint at the buffer's position and advances it. */
    public static long readVarlong(ByteBuffer buffer) {
        long raw = 0;
        int shift = 0;
        while (true) {
            if (!buffer.hasRemaining()) {
                throw new CorruptRecordException("Varlong runs past the end of its buffer");
            }
            byte b = buffer.get();
            raw |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
            shift += 7;
            if (shift > 63) {
                throw new CorruptRecordException("Varlong is longer than 10 bytes");
            }
        }
    }

    /** Writes {@code value} zig-zag encoded at the buffer's position. */
    public static void writeVarint(int value, ByteBuffer buffer) {
        int v = (value << 1) ^ (value >> 31);
        while ((v & 0xffffff80) != 0) {
            buffer.put((byte) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        buffer.put((byte) v);
    }

    /** Writes {@code value} zig-zag encoded at the buffer's position. */
    public static void writeVarlong(long value, ByteBuffer buffer) {
        long v = (value << 1) ^ (value >> 63);
        while ((v & 0xffffffffffffff80L) != 0L) {
            buffer.put((byte) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        buffer.put((byte) v);
    }

    /**
     * Writes {@code value} zig-zag encoded into {@code array} at {@code index}, which has room, and
     * returns the index after it: a producer's per-record path, with no buffer bounds check per byte.
     */
    public static int writeVarint(int value, byte[] array, int index) {
        int v = (value << 1) ^ (value >> 31);
        while ((v & 0xffffff80) != 0) {
            array[index++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        array[index++] = (byte) v;
        return index;
    }

    /** As {@link #writeVarint(int, byte[], int)}, for a 64-bit value. */
    public static int writeVarlong(long value, byte[] array, int index) {
        long v = (value << 1) ^ (value >> 63);
        while ((v & 0xffffffffffffff80L) != 0L) {
            array[index++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        array[index++] = (byte) v;
        return index;
    }

    /** The number of bytes {@link #writeVarint} uses for {@code value}. */
    public static int sizeOfVarint(int value) {
        // 7 bits a byte: ceil(significant bits / 7), and one byte for zero. No loop: it runs per record.
        int leadingZeros = Integer.numberOfLeadingZeros((value << 1) ^ (value >> 31));
        return (38 - leadingZeros) / 7 + (leadingZeros >>> 5);
    }

    /** The number of bytes {@link #writeVarlong} uses for {@code value}. */
    public static int sizeOfVarlong(long value) {
        int leadingZeros = Long.numberOfLeadingZeros((value << 1) ^ (value >> 63));
        return (70 - leadingZeros) / 7 + (leadingZeros >>> 6);
    }

    /** Reads four bytes at {@code index} as an unsigned 32-bit value. */
    public static long readUnsignedInt(ByteBuffer buffer, int index) {
        return buffer.getInt(index) & 0xffffffffL;
    }

    /** Writes the low 32 bits of {@code value} at {@code index}. */
    public static void writeUnsignedInt(ByteBuffer buffer, int index, long value) {
        buffer.putInt(index, (int) (value & 0xffffffffL));
    }
}
