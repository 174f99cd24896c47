package io.millrace.common.protocol;

import io.millrace.common.protocol.types.BufferWriter;
import io.millrace.common.protocol.types.ProtocolWriter;
import io.millrace.common.protocol.types.SizeCounter;
import java.nio.ByteBuffer;

/**
 * A request or response body. Each implementation is an immutable record with a static
 * {@code parse(ByteBuffer, short version)} and one {@link #write(ProtocolWriter, short)}; sizing and
 * writing to a buffer are derived from that one method, so they cannot disagree.
 *
 * <p>Messages are immutable and safe to share between threads, with one caveat: records fields
 * are slices that share their bytes with the buffer they were parsed from (on purpose, so the
 * broker can assign offsets in place), and equality compares those bytes.
 */
public interface ApiMessage {

    ApiKey apiKey();

    /**
     * Writes the body as {@code version} lays it out. Fields that {@code version} lacks are left
     * out; parsing fills them with Kafka's defaults.
     *
     * @throws UnsupportedVersionException if Millrace does not support {@code version}
     */
    void write(ProtocolWriter writer, short version);

    /** The body's size in bytes at {@code version}, records payloads included. */
    default int sizeInBytes(short version) {
        SizeCounter counter = new SizeCounter(apiKey().isFlexible(version));
        write(counter, version);
        return counter.size();
    }

    /** Writes the body at the buffer's position, which must have {@link #sizeInBytes} bytes of room. */
    default void writeTo(ByteBuffer buffer, short version) {
        write(new BufferWriter(buffer, apiKey().isFlexible(version)), version);
    }
}
