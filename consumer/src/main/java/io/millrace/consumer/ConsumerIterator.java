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
        FetchedChunk chunk;
        if (deadline == Long.MAX_VALUE) {
            chunk = queue.take();
        } else {
            chunk = queue.poll(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
        if (chunk == null) {
            return false;
        }
        if (chunk.isShutdown()) {
            shutdown = true;
            queue.offer(chunk);   // leave it for anyone else waiting on this queue
            return true;
        }
        if (!chunk.partition().isRevoked()) {
            partition = chunk.partition();
            long from = Math.max(chunk.fetchOffset(), Math.max(partition.consumedOffset(), pending.deliveredUpTo(partition)));
            cursor = new RecordCursor(chunk.records(), from, Long.MAX_VALUE, checkCrcs, null);
        }
        return true;
    }
}
