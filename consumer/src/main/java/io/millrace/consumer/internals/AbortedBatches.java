package io.millrace.consumer.internals;

import io.millrace.common.protocol.message.FetchResponse.AbortedTransaction;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.EndTransactionMarker;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.record.RecordBatchIterator;
import io.millrace.common.utils.ByteBufferOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * Drops an aborted transaction's records from a read-committed fetch, as Kafka's consumer does: the
 * broker names each aborted transaction in the fetched range by producer and first offset; from that
 * offset on, that producer's transactional batches are aborted until its abort marker. Each such
 * batch is replaced by an empty batch over the same offsets (as compaction leaves them), so that
 * every reader of the bytes (record cursors, views, the mirror's batch copy) skips its records and
 * still moves past its offsets. Only fetches naming aborted transactions pay for the copy. Stateless.
 */
public final class AbortedBatches {

    private AbortedBatches() {
    }

    /** {@code records} with the batches of the {@code aborted} transactions emptied, in a new buffer. */
    public static ByteBuffer emptied(ByteBuffer records, List<AbortedTransaction> aborted) {
        PriorityQueue<AbortedTransaction> pending = new PriorityQueue<>(Comparator.comparingLong(AbortedTransaction::firstOffset));
        pending.addAll(aborted);
        Set<Long> abortedProducers = new HashSet<>();
        List<ByteBuffer> kept = new ArrayList<>();
        int size = 0;
        for (RecordBatch batch : RecordBatchIterator.batches(records.duplicate())) {
            while (!pending.isEmpty() && pending.peek().firstOffset() <= batch.lastOffset()) {
                abortedProducers.add(pending.poll().producerId());
            }
            if (batch.isControlBatch()) {
                EndTransactionMarker marker = batch.isTransactional() ? EndTransactionMarker.read(batch) : null;
                if (marker != null && !marker.commit()) {
                    abortedProducers.remove(batch.producerId());
                }
                kept.add(batch.slice());
            } else if (batch.isTransactional() && abortedProducers.contains(batch.producerId())) {
                kept.add(empty(batch));
            } else {
                kept.add(batch.slice());
            }
            size += kept.get(kept.size() - 1).remaining();
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        kept.forEach(batch -> out.put(batch.duplicate()));
        return out.flip();
    }

    /** A batch with no record over {@code batch}'s offsets, with its producer, epoch and timestamps. */
    private static ByteBuffer empty(RecordBatch batch) {
        return new RecordBatchBuilder(new ByteBufferOutputStream(RecordBatch.HEADER_SIZE), CompressionType.NONE,
            batch.timestampType(), batch.baseOffset(), batch.maxTimestamp())
            .producerState(batch.producerId(), batch.producerEpoch(), batch.baseSequence(), true)
            .partitionLeaderEpoch(batch.partitionLeaderEpoch())
            .buildKeeping(batch);
    }
}
