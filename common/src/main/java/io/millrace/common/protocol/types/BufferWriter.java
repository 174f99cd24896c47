package io.millrace.common.protocol.types;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Writes protocol bytes at a buffer's position, advancing it. The buffer must have room for the
 * message: size it with the message's {@code sizeInBytes}. Records payloads are copied in.
 */
public class BufferWriter extends ProtocolWriter {

    protected final ByteBuffer buffer;

    public BufferWriter(ByteBuffer buffer, boolean flexible) {
        super(flexible);
        this.buffer = buffer;
    }

    @Override
    public void writeInt8(byte value) {
        buffer.put(value);
    }

    @Override
    public void writeInt16(short value) {
        buffer.putShort(value);
    }

    @Override
    public void writeInt32(int value) {
        buffer.putInt(value);
    }

    @Override
    public void writeInt64(long value) {
        buffer.putLong(value);
    }

    @Override
    protected void writeRawBytes(ByteBuffer src) {
        buffer.put(src.duplicate());
    }

    @Override
    protected void writeUtf8(String s, int utf8Length) {
        buffer.put(s.getBytes(StandardCharsets.UTF_8));
    }

    @Override
    protected void writeRecordsPayload(RecordsPayload records) {
        records.copyTo(buffer);
    }
}
