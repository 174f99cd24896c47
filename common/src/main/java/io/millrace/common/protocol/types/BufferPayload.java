package io.millrace.common.protocol.types;

import java.nio.ByteBuffer;

/**
 * Records held in memory: the bytes between the buffer's position and limit. Equality compares
 * those bytes. The buffer is shared, not copied, and its position is never moved.
 */
public record BufferPayload(ByteBuffer buffer) implements RecordsPayload {

    public BufferPayload {
        if (buffer == null) {
            throw new IllegalArgumentException("buffer is null");
        }
    }

    @Override
    public int sizeInBytes() {
        return buffer.remaining();
    }

    @Override
    public void copyTo(ByteBuffer destination) {
        destination.put(buffer.duplicate());
    }
}
