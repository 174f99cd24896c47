package io.millrace.common.protocol.types;

import java.nio.ByteBuffer;

/**
 * Writes a message as alternating segments instead of one buffer: protocol bytes (everything up
 * to and including a records field's length prefix) and records payloads, which the sink can send
 * without copying. The protocol bytes all go into one buffer, sized by
 * {@link SizeCounter#size()} minus {@link SizeCounter#recordsSize()}; each segment handed to the
 * sink is a slice of it. Call {@link #finish()} after the last field to emit the trailing bytes.
 */
public final class SegmentWriter extends BufferWriter {

    /** Receives a message's segments in wire order. */
    public interface SegmentSink {

        /** Protocol bytes, a slice the sink may keep; never empty. */
        void protocolBytes(ByteBuffer bytes);

        /** A records payload to send as it is, {@link RecordsPayload#sizeInBytes()} bytes. */
        void records(RecordsPayload records);
    }

    private final SegmentSink sink;
    private int segmentStart;

    public SegmentWriter(ByteBuffer buffer, boolean flexible, SegmentSink sink) {
        super(buffer, flexible);
        this.sink = sink;
        this.segmentStart = buffer.position();
    }

    @Override
    protected void writeRecordsPayload(RecordsPayload records) {
        if (records.sizeInBytes() > 0) {
            emitProtocolBytes();
            sink.records(records);
        }
    }

    /** Emits the protocol bytes written since the last records payload. */
    public void finish() {
        emitProtocolBytes();
    }

    private void emitProtocolBytes() {
        if (buffer.position() > segmentStart) {
            ByteBuffer segment = buffer.duplicate();
            segment.position(segmentStart).limit(buffer.position());
            sink.protocolBytes(segment.slice());
            segmentStart = buffer.position();
        }
    }
}
