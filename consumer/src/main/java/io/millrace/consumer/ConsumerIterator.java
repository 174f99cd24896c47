package io.millrace.consumer;

import io.millrace.common.record.Record;
import io.millrace.consumer.internals.FetchedChunk;
import io.millrace.consumer.internals.OwnedPartition;
import io.millrace.consumer.internals.PendingOffsets;
import io.millrace.consumer.internals.RecordConverter;
import io.millrace.consumer.internals.RecordCursor;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The blocking iterator of a {@link MessageStream}. {@link #hasNext()} waits for the next message
 * (forever when {@code consumer.timeout.ms} is -1, else throwing {@link ConsumerTimeoutException})
 * and returns false only once the consumer is closed. A message handed out counts as processed, and
 * so is covered by the next commit, once the application calls {@link #hasNext()} or {@link #next()}
 * again: a message being processed when the consumer closes or gives its partition up is delivered
 * again rather than committed unprocessed. Records are decoded straight from the fetched bytes, one view
 * nothing copied but what the deserializers take. Not thread-safe: one reading thread per stream.
 */
public final class ConsumerIterator<K, V> implements Iterator<ConsumerRecord<K, V>> {

    private final BlockingQueue<FetchedChunk> queue;
    private final RecordConverter<K, V> converter;
    private final long timeoutMs;
    private final boolean checkCrcs;
    private OwnedPartition partition;
    private RecordCursor cursor;
    private final PendingOffsets pending = new PendingOffsets();
    private ConsumerRecord<K, V> next;
    private boolean shutdown;

    ConsumerIterator(BlockingQueue<FetchedChunk> queue, RecordConverter<K, V> converter, long timeoutMs, boolean checkCrcs) {
        this.queue = queue;
        this.converter = converter;
        this.timeoutMs = timeoutMs;
        this.checkCrcs = checkCrcs;
    }

    @Override
    public boolean hasNext() {
        if (next == null) {
            markProcessed();   // the application came back for more: what next() returned is done
        }
        if (next == null && !shutdown) {
            try {
                next = poll(timeoutMs < 0 ? Long.MAX_VALUE : timeoutMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ConsumerTimeoutException("Interrupted while waiting for a message");
            }
            if (next == null && !shutdown) {
                throw new ConsumerTimeoutException("No message within consumer.timeout.ms = " + timeoutMs + " ms");
            }
        }
        return next != null;
    }

    @Override
    public ConsumerRecord<K, V> next() {
        if (!hasNext()) {
            throw new NoSuchElementException("The consumer is closed");
        }
        ConsumerRecord<K, V> record = next;
        next = null;
        return record;
    }

    /**
     * Says the application has finished with every message {@link #next()} returned, so the next
     * commit covers them without waiting for the application to ask for more: call it before
     * {@link GroupConsumer#commit()} from the thread that reads this stream.
     */
    public void markProcessed() {
        pending.markProcessed();
    }

    /**
     * The next message if one arrives within {@code waitMs}, else null (also once the consumer is
     * closed). It counts as processed only at the next {@link #markProcessed()}.
     */
    ConsumerRecord<K, V> poll(long waitMs) throws InterruptedException {
        if (next != null) {
            ConsumerRecord<K, V> record = next;
            next = null;
            return record;
        }
        long deadline = waitMs == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        while (!shutdown) {
            ConsumerRecord<K, V> record = nextFromChunk();
            if (record != null) {
                return record;
            }
            if (!takeChunk(deadline)) {
                return null;
            }
        }
        return null;
    }

    /** The next record of the current chunk that is still ours to deliver, or null when the chunk is done. */
    private ConsumerRecord<K, V> nextFromChunk() {
        while (cursor != null && cursor.advance()) {
            Record record = cursor.current();
            if (partition.isRevoked()) {
                cursor = null;   // revoked by a rebalance or a seek: the rest of the chunk is someone else's
                return null;
            }
            ConsumerRecord<K, V> converted = converter.convert(partition.tp().topic(), partition.tp().partition(), record);
            pending.delivered(partition, record.offset() + 1);
            return converted;
        }
        cursor = null;
        return null;
    }

    /** Waits for the next chunk until {@code deadline} (System.nanoTime); false on timeout. */
    private boolean takeChunk(long deadline) throws InterruptedException {
        FetchedChunk chunk = awaitChunk(deadline);
        if (chunk == null) {
            return false;
        }
        if (!chunk.isShutdown() && !chunk.partition().isRevoked()) {
            partition = chunk.partition();
            cursor = new RecordCursor(chunk.records(), firstUndelivered(chunk), Long.MAX_VALUE, checkCrcs, null);
        }
        return true;
    }

    /** The next chunk, or null when none came before {@code deadline}; the shutdown marker ends the stream. */
    private FetchedChunk awaitChunk(long deadline) throws InterruptedException {
        FetchedChunk chunk;
        if (deadline == Long.MAX_VALUE) {
            chunk = queue.take();
        } else {
            chunk = queue.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        if (chunk != null && chunk.isShutdown()) {
            shutdown = true;
            queue.offer(chunk);   // leave it for anyone else waiting on this queue
        }
        return chunk;
    }

    /** Where to start in a chunk: it may begin before what this stream has already delivered or processed. */
    private long firstUndelivered(FetchedChunk chunk) {
        OwnedPartition owner = chunk.partition();
        return Math.max(chunk.fetchOffset(), Math.max(owner.consumedOffset(), pending.deliveredUpTo(owner)));
    }

    /**
     * The next fetched chunk as whole record batches, none of them decoded, starting at the first
     * offset not yet delivered (so its first batch may hold earlier records, which the caller skips), or
     * null when none came within {@code waitMs} or the consumer closed. Every offset up to the chunk's
     * {@link FetchedBatches#nextOffset()} counts as delivered, and is covered by the commit after the next
     * {@link #markProcessed()}. For a copier that sends batches as they came; a stream is read either
     * this way or record by record.
     */
    FetchedBatches pollBatches(long waitMs) throws InterruptedException {
        if (next != null || cursor != null) {
            throw new IllegalStateException("This stream is being read record by record");
        }
        long deadline = waitMs == Long.MAX_VALUE ? Long.MAX_VALUE : System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMs);
        while (!shutdown) {
            FetchedChunk chunk = awaitChunk(deadline);
            if (chunk == null) {
                return null;
            }
            if (chunk.isShutdown() || chunk.partition().isRevoked()) {
                continue;
            }
            long from = firstUndelivered(chunk);
            FetchedBatches batches = new FetchedBatches(chunk.partition().tp(), from, -1L, -1L, chunk.records(), checkCrcs);
            long end = batches.nextOffset();
            if (end > from) {
                pending.delivered(chunk.partition(), end);
                return batches;
            }
        }
        return null;
    }
}
