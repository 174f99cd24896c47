package io.millrace.common.protocol.types;

import java.nio.ByteBuffer;

/**
 * A writer that writes nothing and counts the bytes a message would take, with the share of them
 * that records payloads take kept apart (see {@link SegmentWriter}).
 */
public final class SizeCounter extends ProtocolWriter {

    private int size;
    private int recordsSize;

    public SizeCounter(boolean flexible) {
        super(flexible);
    }

    /** All bytes counted so far, records payloads included. */
    public int size() {
        return size;
    }

    /** The bytes of records payloads among {@link #size()}, excluding their length prefixes. */
    public int recordsSize() {
        return recordsSize;
    }

    @Override
    public void writeInt8(byte value) {
        size += 1;
    }

    @Override
    public void writeInt16(short value) {
        size += 2;
    }

    @Override
    public void writeInt32(int value) {
        size += 4;
    }

    @Override
    public void writeInt64(long value) {
        size += 8;
    }

    @Override
    public void writeUnsignedVarint(int value) {
        size += (38 - Integer.numberOfLeadingZeros(value | 1)) / 7;
    }

    @Override
    protected void writeRawBytes(ByteBuffer src) {
        size += src.remaining();
    }

    @Override
    protected void writeUtf8(String s, int utf8Length) {
        size += utf8Length;
    }

    @Override
    protected void writeRecordsPayload(RecordsPayload records) {
        size += records.sizeInBytes();
        recordsSize += records.sizeInBytes();
    }
}
