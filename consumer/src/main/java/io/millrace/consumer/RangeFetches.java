package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import java.util.concurrent.CompletableFuture;

/**
 * The responses that cover one partition's offset range {@code [start, end)}, one fetch ahead:
 * when a response is handed out, the fetch after it is already on its way, so the next answer
 * travels while the caller reads this one, as Kafka's consumer does. Behind {@link RangeIterator}
 * and {@link RecordViews}. Not thread-safe.
 */
final class RangeFetches {

    private final PartitionReader reader;
    private final TopicPartition tp;
    private final long endOffset;
    private long nextOffset;
    /** The fetch after the latest response, already on its way; null when none was started. */
    private CompletableFuture<FetchedBatches> prefetched;

    RangeFetches(PartitionReader reader, TopicPartition tp, long startOffset, long endOffset) {
        this.reader = reader;
        this.tp = tp;
        this.nextOffset = startOffset;
        this.endOffset = endOffset;
    }

    TopicPartition partition() {
        return tp;
    }

    long endOffset() {
        return endOffset;
    }

    /** Whether offsets of the range are left to fetch. */
    boolean hasMore() {
        return nextOffset < endOffset;
    }

    /**
     * The next response of the range, from {@link #hasMore() the first offset not yet fetched}: an
     * empty one when the partition has nothing there yet (the fetch waited fetch.max.wait.ms).
     * Throws what {@link PartitionReader#fetch} throws.
     */
    FetchedBatches next() {
        FetchedBatches fetched = prefetched == null ? null : prefetched.join();
        prefetched = null;
        if (fetched == null) {
            fetched = reader.fetch(tp, nextOffset);
        }
        long fetchedUpTo = fetched.nextOffset();
        if (fetchedUpTo > nextOffset && fetchedUpTo < endOffset) {
            prefetched = reader.prefetch(tp, fetchedUpTo);
        }
        nextOffset = Math.min(endOffset, fetchedUpTo);
        return fetched;
    }
}
