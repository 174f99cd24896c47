package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import io.millrace.common.serialization.Deserializer;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.NoSuchElementException;

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
    private final ArrayDeque<ConsumerRecord<K, V>> buffered = new ArrayDeque<>();
    private long nextOffset;

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
        while (buffered.isEmpty() && nextOffset < endOffset) {
            FetchedBatches fetched = reader.fetch(tp, nextOffset);
            buffered.addAll(fetched.records(endOffset, keys, values));
            nextOffset = Math.min(endOffset, fetched.nextOffset());
        }
        return !buffered.isEmpty();
    }

    @Override
    public ConsumerRecord<K, V> next() {
        if (!hasNext()) {
            throw new NoSuchElementException("No records left in " + tp + " below offset " + endOffset);
        }
        return buffered.poll();
    }
}
