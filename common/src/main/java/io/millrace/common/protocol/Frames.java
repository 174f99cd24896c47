package io.millrace.common.protocol;

import io.millrace.common.protocol.types.BufferWriter;
import io.millrace.common.protocol.types.SegmentWriter;
import io.millrace.common.protocol.types.SegmentWriter.SegmentSink;
import io.millrace.common.protocol.types.SizeCounter;
import java.nio.ByteBuffer;

/**
 * Whole frames as they travel on a connection: a 4-byte size, then a header, then a body.
 *
 * <pre>
 * RequestFrame  => size RequestHeader body      (size: INT32, bytes after itself)
 * ResponseFrame => size ResponseHeader body
 * </pre>
 *
 * The receiving side strips the size (the broker with Netty's {@code LengthFieldBasedFrameDecoder(max, 0,
 * 4, 0, 4)}, the clients with {@code ResponseFrameDecoder}, which copies a response once) and parses the rest with {@link RequestHeader#parse} or {@link ResponseHeader#parse} and the
 * body's {@code parse}. Sending uses the methods here: one buffer for most responses, or
 * {@link #writeResponse(int, ApiMessage, short, SegmentSink)} when the body carries records that
 * should go out without being copied (Fetch).
 */
public final class Frames {

    private static final int SIZE_PREFIX = 4;

    private Frames() {
    }

    /** A request frame in a new buffer, flipped for reading. */
    public static ByteBuffer request(RequestHeader header, ApiMessage body) {
        int size = header.sizeInBytes() + body.sizeInBytes(header.apiVersion());
        ByteBuffer buffer = ByteBuffer.allocate(SIZE_PREFIX + size);
        buffer.putInt(size);
        header.writeTo(buffer);
        body.writeTo(buffer, header.apiVersion());
        return buffer.flip();
    }

    /** A response frame in a new buffer, flipped for reading; records payloads are copied in. */
    public static ByteBuffer response(int correlationId, ApiMessage body, short version) {
        short headerVersion = body.apiKey().responseHeaderVersion(version);
        int size = ResponseHeader.sizeInBytes(headerVersion) + body.sizeInBytes(version);
        ByteBuffer buffer = ByteBuffer.allocate(SIZE_PREFIX + size);
        buffer.putInt(size);
        BufferWriter writer = new BufferWriter(buffer, body.apiKey().isFlexible(version));
        new ResponseHeader(correlationId).write(writer, headerVersion);
        body.write(writer, version);
        return buffer.flip();
    }

    /**
     * Writes a response frame as segments: protocol bytes (size, header and every field up to and
     * including each records length prefix) and the records payloads between them, in wire order.
     * All protocol bytes share one buffer of exactly their size; records payloads are handed over,
     * never copied, so the broker can send a segment file region with zero copy.
     */
    public static void writeResponse(int correlationId, ApiMessage body, short version, SegmentSink sink) {
        short headerVersion = body.apiKey().responseHeaderVersion(version);
        boolean flexible = body.apiKey().isFlexible(version);
        SizeCounter counter = new SizeCounter(flexible);
        body.write(counter, version);
        int size = ResponseHeader.sizeInBytes(headerVersion) + counter.size();
        ByteBuffer protocolBytes = ByteBuffer.allocate(SIZE_PREFIX + size - counter.recordsSize());
        SegmentWriter writer = new SegmentWriter(protocolBytes, flexible, sink);
        writer.writeInt32(size);
        new ResponseHeader(correlationId).write(writer, headerVersion);
        body.write(writer, version);
        writer.finish();
    }

    /**
     * Writes a request frame as segments, the way {@link #writeResponse(int, ApiMessage, short, SegmentSink)}
     * does a response: a client sends a Produce request's record batches from the buffers they were
     * built in, without copying them into the frame.
     */
    public static void writeRequest(RequestHeader header, ApiMessage body, SegmentSink sink) {
        boolean flexible = body.apiKey().isFlexible(header.apiVersion());
        SizeCounter counter = new SizeCounter(flexible);
        body.write(counter, header.apiVersion());
        int size = header.sizeInBytes() + counter.size();
        ByteBuffer protocolBytes = ByteBuffer.allocate(SIZE_PREFIX + size - counter.recordsSize());
        SegmentWriter writer = new SegmentWriter(protocolBytes, flexible, sink);
        writer.writeInt32(size);
        header.write(writer);
        body.write(writer, header.apiVersion());
        writer.finish();
    }
}
