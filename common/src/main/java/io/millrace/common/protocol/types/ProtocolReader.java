package io.millrace.common.protocol.types;

import io.millrace.common.protocol.InvalidRequestException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * Reads Kafka protocol primitives from a {@link ByteBuffer}, advancing its position.
 *
 * <p>Every read checks the bytes left first, and every length or count is checked against them
 * before anything is allocated, so malformed or hostile input can only raise
 * {@link InvalidRequestException}: never {@code BufferUnderflowException},
 * {@code NegativeArraySizeException} or an allocation larger than the input.
 *
 * <p>A reader is created for one message version: when {@code flexible} is set, strings, bytes and
 * arrays use the compact encodings (unsigned varint of length + 1, 0 meaning null) and
 * {@link #readTaggedFields()} consumes a tagged-field section; otherwise they use the classic
 * int16/int32 lengths (-1 meaning null) and there are no tagged fields.
 *
 * <p>Byte fields ({@link #readBytes()}, {@link #readRecords()}) return slices that share the
 * underlying buffer; nothing is copied. Not thread-safe.
 */
public final class ProtocolReader {

    /** Longest string Kafka's protocol allows: the int16 length's range, also applied to compact strings. */
    public static final int MAX_STRING_LENGTH = Short.MAX_VALUE;

    private static final int UUID_SIZE = 16;

    private final ByteBuffer buffer;
    private final boolean flexible;

    public ProtocolReader(ByteBuffer buffer, boolean flexible) {
        this.buffer = buffer;
        this.flexible = flexible;
    }

    public boolean flexible() {
        return flexible;
    }

    public int remaining() {
        return buffer.remaining();
    }

    public byte readInt8() {
        require(1, "int8");
        return buffer.get();
    }

    public short readInt16() {
        require(2, "int16");
        return buffer.getShort();
    }

    public int readInt32() {
        require(4, "int32");
        return buffer.getInt();
    }

    public long readInt64() {
        require(8, "int64");
        return buffer.getLong();
    }

    /** An IEEE 754 double, big-endian, as Kafka's float64. */
    public double readFloat64() {
        return Double.longBitsToDouble(readInt64());
    }

    /** An unsigned 16-bit integer. */
    public int readUint16() {
        return readInt16() & 0xffff;
    }

    /** An unsigned 32-bit integer. */
    public long readUint32() {
        return readInt32() & 0xffffffffL;
    }

    /** A boolean is one byte; like Kafka, any non-zero value reads as true. */
    public boolean readBool() {
        return readInt8() != 0;
    }

    public UUID readUuid() {
        require(UUID_SIZE, "uuid");
        return new UUID(buffer.getLong(), buffer.getLong());
    }

    /** An unsigned 32-bit varint (at most 5 bytes); values above 2^31 - 1 come back negative. */
    public int readUnsignedVarint() {
        int value = 0;
        for (int shift = 0; shift <= 28; shift += 7) {
            byte b = readInt8();
            value |= (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw malformed("unsigned varint is longer than 5 bytes");
    }

    /** A zig-zag encoded signed 32-bit varint. */
    public int readVarint() {
        int raw = readUnsignedVarint();
        return (raw >>> 1) ^ -(raw & 1);
    }

    /** A zig-zag encoded signed 64-bit varint (at most 10 bytes). */
    public long readVarlong() {
        long raw = 0;
        for (int shift = 0; shift <= 63; shift += 7) {
            byte b = readInt8();
            raw |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw malformed("varlong is longer than 10 bytes");
    }

    /** A string that must not be null. */
    public String readString() {
        String s = readNullableString();
        if (s == null) {
            throw malformed("non-nullable string is null");
        }
        return s;
    }

    public String readNullableString() {
        int length = flexible ? readUnsignedVarint() - 1 : readInt16();
        return readUtf8(length);
    }

    /**
     * A nullable string with an int16 length whatever the version: the request header's client id
     * keeps this encoding even in flexible versions, so any broker can read it.
     */
    public String readClassicNullableString() {
        return readUtf8(readInt16());
    }

    private String readUtf8(int length) {
        if (length == -1) {
            return null;
        }
        if (length < -1 || length > MAX_STRING_LENGTH) {
            throw malformed("string length %d is out of range", length);
        }
        require(length, "string");
        byte[] utf8 = new byte[length];
        buffer.get(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }

    /** A byte field that must not be null, as a slice of the input. */
    public ByteBuffer readBytes() {
        ByteBuffer bytes = readNullableBytes();
        if (bytes == null) {
            throw malformed("non-nullable bytes field is null");
        }
        return bytes;
    }

    /** A nullable byte field, as a slice of the input (not copied). */
    public ByteBuffer readNullableBytes() {
        int length = flexible ? readUnsignedVarint() - 1 : readInt32();
        if (length == -1) {
            return null;
        }
        if (length < -1) {
            throw malformed("bytes length %d is negative", length);
        }
        require(length, "bytes");
        ByteBuffer slice = buffer.slice();
        slice.limit(length);
        buffer.position(buffer.position() + length);
        return slice;
    }

    /** A records field: nullable bytes on the wire, returned as an unparsed slice of the input. */
    public ByteBuffer readRecords() {
        return readNullableBytes();
    }

    /**
     * Reads an array's element count, -1 for a null array. The count is rejected unless the bytes
     * left could hold that many elements of at least {@code minElementSize} bytes each, which bounds
     * every allocation by the input's size.
     */
    public int readArrayLength(int minElementSize) {
        int count = flexible ? readUnsignedVarint() - 1 : readInt32();
        if (count == -1) {
            return -1;
        }
        if (count < -1) {
            throw malformed("array length %d is negative", count);
        }
        if ((long) count * Math.max(1, minElementSize) > buffer.remaining()) {
            throw malformed("array of %d elements cannot fit in the %d bytes left", count, buffer.remaining());
        }
        return count;
    }

    /** An array that must not be null; {@code minElementSize} is the smallest encoding of one element. */
    public <T> List<T> readArray(Function<ProtocolReader, T> element, int minElementSize) {
        List<T> list = readNullableArray(element, minElementSize);
        if (list == null) {
            throw malformed("non-nullable array is null");
        }
        return list;
    }

    public <T> List<T> readNullableArray(Function<ProtocolReader, T> element, int minElementSize) {
        int count = readArrayLength(minElementSize);
        if (count == -1) {
            return null;
        }
        if (count == 0) {
            return Collections.emptyList();
        }
        List<T> list = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            list.add(element.apply(this));
        }
        return list;
    }

    public List<Integer> readInt32Array() {
        return readArray(ProtocolReader::readInt32, 4);
    }

    public List<String> readStringArray() {
        return readArray(ProtocolReader::readString, flexible ? 1 : 2);
    }

    /**
     * Consumes a tagged-field section (flexible versions only): a count, then for each field its
     * tag, its size and its bytes. Millrace models no tagged field, so every one is skipped.
     */
    public void readTaggedFields() {
        if (!flexible) {
            return;
        }
        int count = readUnsignedVarint();
        if (count < 0 || count > buffer.remaining()) {
            throw malformed("%d tagged fields cannot fit in the %d bytes left", count & 0xffffffffL, buffer.remaining());
        }
        for (int i = 0; i < count; i++) {
            readUnsignedVarint();
            int size = readUnsignedVarint();
            if (size < 0) {
                throw malformed("tagged field size %d is out of range", size & 0xffffffffL);
            }
            require(size, "tagged field");
            buffer.position(buffer.position() + size);
        }
    }

    private void require(int bytes, String what) {
        if (buffer.remaining() < bytes) {
            throw malformed("%s needs %d bytes but only %d are left", what, bytes, buffer.remaining());
        }
    }

    private static InvalidRequestException malformed(String format, Object... args) {
        return new InvalidRequestException("Malformed protocol bytes: " + String.format(format, args));
    }
}
