package io.millrace.common.protocol.types;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;
import java.util.function.BiConsumer;

/**
 * Writes Kafka protocol primitives. A message's {@code write} method is written once against this
 * class and serves two purposes: {@link BufferWriter} puts the bytes into a buffer, and
 * {@link SizeCounter} only counts them, so a message's {@code sizeInBytes} can never disagree with
 * what it writes.
 *
 * <p>Like {@link ProtocolReader}, a writer is made for one version: {@code flexible} selects the
 * compact encodings and makes {@link #writeTaggedFields()} write an empty tagged-field section
 * (Millrace never sends tagged fields). Writing trusts its caller: a null where the protocol
 * forbids one or a string longer than 32767 UTF-8 bytes is a programming error and throws
 * {@link IllegalArgumentException}. Not thread-safe.
 */
public abstract class ProtocolWriter {

    private final boolean flexible;

    protected ProtocolWriter(boolean flexible) {
        this.flexible = flexible;
    }

    public final boolean flexible() {
        return flexible;
    }

    public abstract void writeInt8(byte value);

    public abstract void writeInt16(short value);

    public abstract void writeInt32(int value);

    public abstract void writeInt64(long value);

    /** Writes the bytes between {@code src}'s position and limit, leaving its position alone. */
    protected abstract void writeRawBytes(ByteBuffer src);

    /** Writes {@code s} as UTF-8; {@code utf8Length} is {@link #utf8Length(String)} of it. */
    protected abstract void writeUtf8(String s, int utf8Length);

    /** Writes the bytes of a records payload whose length prefix has just been written. */
    protected abstract void writeRecordsPayload(RecordsPayload records);

    /** Writes the low 16 bits of {@code value}, which must be in [0, 65535]. */
    public void writeUint16(int value) {
        if (value < 0 || value > 0xffff) {
            throw new IllegalArgumentException("uint16 out of range: " + value);
        }
        writeInt16((short) value);
    }

    /** Writes the low 32 bits of {@code value}, which must be in [0, 2^32 - 1]. */
    public void writeUint32(long value) {
        if (value < 0 || value > 0xffffffffL) {
            throw new IllegalArgumentException("uint32 out of range: " + value);
        }
        writeInt32((int) value);
    }

    /** An IEEE 754 double, big-endian, as Kafka's float64. */
    public void writeFloat64(double value) {
        writeInt64(Double.doubleToRawLongBits(value));
    }

    public void writeBool(boolean value) {
        writeInt8(value ? (byte) 1 : (byte) 0);
    }

    public void writeUuid(UUID uuid) {
        writeInt64(uuid.getMostSignificantBits());
        writeInt64(uuid.getLeastSignificantBits());
    }

    public void writeUnsignedVarint(int value) {
        int v = value;
        while ((v & ~0x7f) != 0) {
            writeInt8((byte) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        writeInt8((byte) v);
    }

    public void writeVarint(int value) {
        writeUnsignedVarint((value << 1) ^ (value >> 31));
    }

    public void writeVarlong(long value) {
        long v = (value << 1) ^ (value >> 63);
        while ((v & ~0x7fL) != 0) {
            writeInt8((byte) ((v & 0x7f) | 0x80));
            v >>>= 7;
        }
        writeInt8((byte) v);
    }

    public void writeString(String s) {
        writeNullableString(nonNull(s, "string"));
    }

    public void writeNullableString(String s) {
        if (flexible) {
            writeCompactString(s);
        } else {
            writeClassicNullableString(s);
        }
    }

    /** An int16-length nullable string whatever the version (the request header's client id). */
    public void writeClassicNullableString(String s) {
        if (s == null) {
            writeInt16((short) -1);
            return;
        }
        int length = checkedUtf8Length(s);
        writeInt16((short) length);
        writeUtf8(s, length);
    }

    private void writeCompactString(String s) {
        if (s == null) {
            writeUnsignedVarint(0);
            return;
        }
        int length = checkedUtf8Length(s);
        writeUnsignedVarint(length + 1);
        writeUtf8(s, length);
    }

    public void writeBytes(ByteBuffer bytes) {
        writeNullableBytes(nonNull(bytes, "bytes"));
    }

    /** Writes the bytes between the buffer's position and limit, or null; the buffer is not moved. */
    public void writeNullableBytes(ByteBuffer bytes) {
        writeBytesLength(bytes == null ? -1 : bytes.remaining());
        if (bytes != null) {
            writeRawBytes(bytes);
        }
    }

    /** A records field held in memory: nullable bytes on the wire. */
    public void writeRecords(ByteBuffer records) {
        writeNullableBytes(records);
    }

    /** A records field that may live outside memory (see {@link RecordsPayload}). */
    public void writeRecords(RecordsPayload records) {
        writeBytesLength(records == null ? -1 : records.sizeInBytes());
        if (records != null) {
            writeRecordsPayload(records);
        }
    }

    private void writeBytesLength(int length) {
        if (flexible) {
            writeUnsignedVarint(length + 1);
        } else {
            writeInt32(length);
        }
    }

    /** Writes an array's element count, -1 meaning a null array. */
    public void writeArrayLength(int count) {
        if (flexible) {
            writeUnsignedVarint(count + 1);
        } else {
            writeInt32(count);
        }
    }

    public <T> void writeArray(List<T> list, BiConsumer<ProtocolWriter, T> element) {
        writeNullableArray(nonNull(list, "array"), element);
    }

    public <T> void writeNullableArray(List<T> list, BiConsumer<ProtocolWriter, T> element) {
        if (list == null) {
            writeArrayLength(-1);
            return;
        }
        writeArrayLength(list.size());
        for (T t : list) {
            element.accept(this, t);
        }
    }

    public void writeInt32Array(List<Integer> list) {
        writeArray(list, ProtocolWriter::writeInt32);
    }

    public void writeStringArray(List<String> list) {
        writeArray(list, ProtocolWriter::writeString);
    }

    /** An empty tagged-field section in flexible versions; nothing otherwise. */
    public void writeTaggedFields() {
        if (flexible) {
            writeUnsignedVarint(0);
        }
    }

    private static int checkedUtf8Length(String s) {
        int length = utf8Length(s);
        if (length > ProtocolReader.MAX_STRING_LENGTH) {
            throw new IllegalArgumentException("String of " + length + " UTF-8 bytes is longer than the protocol allows");
        }
        return length;
    }

    /**
     * The number of bytes {@code s.getBytes(UTF_8)} produces, without encoding it. An unpaired
     * surrogate counts one byte, as the JDK encoder replaces it with {@code '?'}.
     */
    public static int utf8Length(String s) {
        int length = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                length += 1;
            } else if (c < 0x800) {
                length += 2;
            } else if (!Character.isSurrogate(c)) {
                length += 3;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                length += 4;
                i++;
            } else {
                length += 1;
            }
        }
        return length;
    }

    private static <T> T nonNull(T value, String what) {
        if (value == null) {
            throw new IllegalArgumentException("A non-nullable " + what + " field is null");
        }
        return value;
    }
}
