package io.millrace.consumer;

import io.millrace.common.serialization.Deserializer;
import java.util.Collections;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The records of one partition's offset range, fetched one response at a time (and one ahead) as
 * the caller iterates ({@link PartitionReader#read}). Not thread-safe.
 */
final class RangeIterator<K, V> implements Iterator<ConsumerRecord<K, V>> {

    private final RangeFetches fetches;
    private final Deserializer<K> keys;
    private final Deserializer<V> values;
    /** The records of the latest response not yet handed out, deserialized one by one as they are. */
    private Iterator<ConsumerRecord<K, V>> buffered = Collections.emptyIterator();

    RangeIterator(RangeFetches fetches, Deserializer<K> keys, Deserializer<V> values) {
        this.fetches = fetches;
        this.keys = keys;
        this.values = values;
    }

    @Override
    public boolean hasNext() {
        while (!buffered.hasNext() && fetches.hasMore()) {
            buffered = fetches.next().iterator(fetches.endOffset(), keys, values);
        }
        return buffered.hasNext();
    }

    @Override
    public ConsumerRecord<K, V> next() {
        if (!hasNext()) {
            throw new NoSuchElementException("No records left in " + fetches.partition() + " below offset "
                + fetches.endOffset());
        }
        return buffered.next();
    }
}
