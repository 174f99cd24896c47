package io.millrace.common.protocol.types;

import java.nio.ByteBuffer;

/**
 * The bytes of a records field that the codec writes without looking inside. In memory it is a
 * {@link BufferPayload}; the broker implements this interface over a slice of a segment file so
 * that a {@link SegmentWriter} can hand the region to the transport to send with zero copy
 * ({@code FileChannel.transferTo} / Netty's {@code DefaultFileRegion}).
 */
public interface RecordsPayload {

    /** The number of bytes, which is what the records field's length prefix says. */
    int sizeInBytes();

    /**
     * Copies the bytes into {@code destination} at its position, advancing it. Used when writing
     * into one buffer (tests, clients, transports that cannot send a file region, such as TLS).
     */
    void copyTo(ByteBuffer destination);

    /** A payload over the buffer's remaining bytes (not copied). */
    static RecordsPayload of(ByteBuffer buffer) {
        return new BufferPayload(buffer);
    }
}
