package io.millrace.broker.log;

import io.millrace.common.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.NavigableMap;

/**
 * Replays the batch headers of a log's segments into a {@link ProducerStateManager}, from a
 * snapshot's offset up to the log end: what a snapshot does not hold. Only the fixed 61-byte
 * headers are read ({@link BatchHeaders}), never the records, but for a transaction marker's. Runs on load or under the log's
 * append lock, when no append can move the end. Stateless.
 */
final class ProducerStateReplay {

    private ProducerStateReplay() {
    }

    /** Replays the batches ending at or after {@code fromOffset} (every batch if it is negative) and below {@code endOffset}. */
    static void replay(ProducerStateManager producers, NavigableMap<Long, LogSegment> segments, long fromOffset,
                       long endOffset, long nowMs) throws IOException {
        Long first = fromOffset < 0 ? segments.firstKey() : segments.floorKey(fromOffset);
        if (first == null) {
            first = segments.firstKey();
        }
        if (first > endOffset) {
            return;
        }
        for (LogSegment segment : segments.subMap(first, true, endOffset, false).values()) {
            replaySegment(producers, segment, fromOffset, endOffset, nowMs);
        }
    }

    /** A control batch read whole: whether its marker commits or aborts is in its record, not its header. */
    private static RecordBatch wholeBatch(LogSegment segment, int position, int size) throws IOException {
        ByteBuffer bytes = ByteBuffer.allocate(size);
        IoUtils.readFully(segment.channel(), bytes, position);
        return RecordBatch.wrap(bytes.flip(), 0);
    }

    private static void replaySegment(ProducerStateManager producers, LogSegment segment, long fromOffset, long endOffset,
                                      long nowMs) throws IOException {
        BatchHeaders headers = BatchHeaders.local();
        int end = segment.size();
        int position = segment.positionOfOffset(Math.max(fromOffset, segment.baseOffset()));
        for (RecordBatch batch = headers.read(segment.channel(), position, end); batch != null;
             batch = headers.read(segment.channel(), position, end)) {
            if (batch.baseOffset() >= endOffset) {
                return;
            }
            if (batch.lastOffset() >= fromOffset) {
                producers.onLoadedBatch(batch.isControlBatch() ? wholeBatch(segment, position, batch.sizeInBytes()) : batch,
                    nowMs);
            }
            position += batch.sizeInBytes();
        }
    }
}
