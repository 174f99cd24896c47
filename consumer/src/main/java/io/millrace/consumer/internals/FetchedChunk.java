package io.millrace.consumer.internals;

import java.nio.ByteBuffer;

/**
 * One partition's part of one fetch response, queued for a stream: the records' bytes (a slice of
 * the response, not copied) and the offset they were fetched from. {@link #SHUTDOWN} tells a stream's
 * iterator that the consumer is closing.
 */
public record FetchedChunk(OwnedPartition partition, ByteBuffer records, long fetchOffset) {

    public static final FetchedChunk SHUTDOWN = new FetchedChunk(null, ByteBuffer.allocate(0), -1);

    public boolean isShutdown() {
        return this == SHUTDOWN;
    }
}
