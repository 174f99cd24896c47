package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.ResponseLease;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchIterator;
import io.millrace.common.serialization.Deserializer;
import io.millrace.consumer.internals.RecordConverter;
import io.millrace.consumer.internals.RecordCursor;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * What one fetch of one partition returned: the record batches as they came (views over the
 * response's bytes, which may start before {@link #fetchOffset()} and end in a fragment that the
 * next fetch returns whole), the partition's high watermark and log start offset, and the offset to
 * fetch next. Immutable; the batches share one read-only buffer.
 */
public final class FetchedBatches {

    private final TopicPartition partition;
    private final long fetchOffset;
    private final long highWatermark;
    private final long logStartOffset;
    private final ByteBuffer records;
    /**
     * The same bytes, writable, for this package's readers only: a CRC over a read-only heap buffer
     * is computed through a copy of it, over this one straight from the array.
     */
    private final ByteBuffer readable;
    private final boolean checkCrcs;
    /** The pooled buffer the records lie in, given back by a reader once past them; null for a heap one. */
    private final ResponseLease lease;

    FetchedBatches(TopicPartition partition, long fetchOffset, long highWatermark, long logStartOffset,
                   ByteBuffer records, boolean checkCrcs) {
        this(partition, fetchOffset, highWatermark, logStartOffset, records, checkCrcs, null);
    }

    FetchedBatches(TopicPartition partition, long fetchOffset, long highWatermark, long logStartOffset,
                   ByteBuffer records, boolean checkCrcs, ResponseLease lease) {
        this.lease = lease;
        this.partition = partition;
        this.fetchOffset = fetchOffset;
        this.highWatermark = highWatermark;
        this.logStartOffset = logStartOffset;
        this.records = records.asReadOnlyBuffer();
        this.readable = records.duplicate();
        this.checkCrcs = checkCrcs;
    }

    public TopicPartition partition() {
        return partition;
    }

    public long fetchOffset() {
        return fetchOffset;
    }

    /**
     * The offset after the last record a consumer may read: the log end offset without replication;
     * -1 for batches a group consumer's stream handed out, which carry no fetch answer.
     */
    public long highWatermark() {
        return highWatermark;
    }

    public long logStartOffset() {
        return logStartOffset;
    }

    /** The whole batches, in offset order (the first may hold records below {@link #fetchOffset()}). */
    public List<RecordBatch> batches() {
        List<RecordBatch> batches = new ArrayList<>();
        new RecordBatchIterator(records.duplicate()).forEachRemaining(batches::add);
        return batches;
    }

    /** The offset to fetch after this answer: past its last whole batch, or the same offset when it had none. */
    public long nextOffset() {
        return RecordCursor.nextFetchOffset(records.duplicate(), fetchOffset);
    }

    /** The bytes of batches this answer carried. */
    int sizeInBytes() {
        return records.remaining();
    }

    public boolean isEmpty() {
        return nextOffset() == fetchOffset;
    }

    /**
     * The records of {@code [fromOffset, endOffset)} of this fetch as one {@link RecordView} moved from
     * record to record: nothing copied, fields decoded when asked for (see {@link RecordViews}).
     */
    public RecordViews views(long fromOffset, long endOffset) {
        return RecordViews.of(this, fromOffset, endOffset);
    }

    /** The bytes as they came, writable (never handed out: the records' key and value are copied or read-only). */
    ByteBuffer readableRecords() {
        return readable.duplicate();
    }

    boolean checkCrcs() {
        return checkCrcs;
    }

    /**
     * Gives the pooled buffer these batches lie in back for a later response, when they lie in one:
     * only for the reader that owns them ({@link RecordViews}), once no view of them is in use.
     */
    void release() {
        if (lease != null) {
            lease.release();
        }
    }

    /** The records from {@link #fetchOffset()} up to {@code endOffset} (exclusive), deserialized. */
    public <K, V> List<ConsumerRecord<K, V>> records(long endOffset, Deserializer<K> keys, Deserializer<V> values) {
        List<ConsumerRecord<K, V>> out = new ArrayList<>();
        iterator(endOffset, keys, values).forEachRemaining(out::add);
        return out;
    }

    /**
     * The same records, each deserialized only when the caller gets to it: a megabyte's response
     * is not turned into thousands of records at once, which kept neither the response nor the
     * records in the CPU's cache. A corrupt batch fails the call that reaches it.
     */
    public <K, V> Iterator<ConsumerRecord<K, V>> iterator(long endOffset, Deserializer<K> keys, Deserializer<V> values) {
        return iterator(fetchOffset, endOffset, keys, values);
    }

    /** The records from {@code fromOffset} up to {@code endOffset} (exclusive), as {@link #iterator(long, Deserializer, Deserializer)}. */
    public <K, V> Iterator<ConsumerRecord<K, V>> iterator(long fromOffset, long endOffset, Deserializer<K> keys,
                                                        Deserializer<V> values) {
        RecordConverter<K, V> converter = new RecordConverter<>(keys, values);
        RecordCursor cursor = new RecordCursor(readableRecords(), Math.max(fromOffset, fetchOffset), endOffset, checkCrcs,
            null);
        return new Iterator<>() {
            private Boolean ahead;

            @Override
            public boolean hasNext() {
                if (ahead == null) {
                    ahead = cursor.advance();
                }
                return ahead;
            }

            @Override
            public ConsumerRecord<K, V> next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("No records left in this fetch of " + partition);
                }
                ahead = null;
                return converter.convert(partition.topic(), partition.partition(), cursor.current());
            }
        };
    }
}
