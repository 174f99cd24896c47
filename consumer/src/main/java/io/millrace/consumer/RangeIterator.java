package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.Deserializer;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;

/**
 * The records of one partition's offset range, fetched one response at a time as the caller
 * iterates ({@link PartitionReader#read}). Not thread-safe.
 */
final class RangeIterator<K, V> implements Iterator<ConsumerRecord<K, V>> {

    private final PartitionReader reader;
    private final TopicPartition tp;
    private final long endOffset;
    private final Deserializer<K> keys;
    private final Deserializer<V> values;
    /** The records of the latest response not yet handed out, deserialized one by one as they are. */
    private Iterator<ConsumerRecord<K, V>> buffered = Collections.emptyIterator();
    private long nextOffset;
    /** The fetch after the buffered records, already on its way; null when none was started. */
    private CompletableFuture<FetchedBatches> prefetched;

    RangeIterator(PartitionReader reader, TopicPartition tp, long startOffset, long endOffset,
                  Deserializer<K> keys, Deserializer<V> values) {
        this.reader = reader;
        this.tp = tp;
        this.nextOffset = startOffset;
        this.endOffset = endOffset;
        this.keys = keys;
        this.values = values;
    }

    @Override
    public boolean hasNext() {
        while (!buffered.hasNext() && nextOffset < endOffset) {
            FetchedBatches fetched = prefetched == null ? null : prefetched.join();
            prefetched = null;
            if (fetched == null) {
                fetched = reader.fetch(tp, nextOffset);
            }
            long fetchedUpTo = fetched.nextOffset();
            if (fetchedUpTo > nextOffset && fetchedUpTo < endOffset) {
                // the next response travels while the caller reads this one, as Kafka's consumer does
                prefetched = reader.prefetch(tp, fetchedUpTo);
            }
            buffered = fetched.iterator(endOffset, keys, values);
            nextOffset = Math.min(endOffset, fetchedUpTo);
        }
        return buffered.hasNext();
    }

    @Override
    public ConsumerRecord<K, V> next() {
        if (!hasNext()) {
            throw new NoSuchElementException("No records left in " + tp + " below offset " + endOffset);
        }
        return buffered.next();
    }
}
