package io.millrace.producer.internals;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.Cluster;
import io.millrace.common.client.Node;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Header;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.utils.Time;
import io.millrace.producer.Callback;
import io.millrace.producer.Partitioner;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The queues of batches, one per partition, between the threads that send and the network
 * thread. {@link #append} adds a record to the partition's open batch, or opens a new batch in a
 * buffer from the pool; the network thread asks which leaders have a batch {@link #ready} (full,
 * lingered long enough, or wanted now by flush or close) and {@link #drain}s them, at most one
 * batch per partition per request.
 *
 * <p>Each partition's queue is its own lock: senders to different partitions never contend, and
 * a sender holds the lock only while encoding its record. Memory is allocated outside the lock,
 * since that may block.
 */
public final class RecordAccumulator {

    private final ConcurrentMap<TopicPartition, Deque<ProducerBatch>> batches = new ConcurrentHashMap<>();
    private final Set<ProducerBatch> incomplete = ConcurrentHashMap.newKeySet();
    private final StickyPartitions sticky = new StickyPartitions();
    private final AtomicInteger flushesInProgress = new AtomicInteger();
    private final AtomicLong batchSequence = new AtomicLong();
    private final BufferPool pool;
    private final int batchSize;
    private final CompressionType compression;
    private final long lingerMs;
    private final long retryBackoffMs;
    private final Time time;
    private final ProducerMetrics metrics;
    private volatile Runnable wakeup = () -> { };
    private volatile Consumer<TopicPartition> batchReady = tp -> { };
    /** An idempotent producer's numbering, read and changed on the I/O thread only; null when not idempotent. */
    private IdempotenceManager idempotence;
    private volatile boolean closed;
    /**
     * The queue {@link #append} used last. Read and written without synchronization: a {@link PartitionQueue}
     * is immutable (final fields) and queues are never removed, so whichever one a thread sees is valid.
     */
    private PartitionQueue lastQueue;

    /** A partition and its queue of batches. */
    private record PartitionQueue(TopicPartition tp, Deque<ProducerBatch> queue) {
    }

    public RecordAccumulator(BufferPool pool, int batchSize, CompressionType compression, long lingerMs,
                             long retryBackoffMs, Time time, ProducerMetrics metrics) {
        this.pool = pool;
        this.batchSize = batchSize;
        this.compression = compression;
        this.lingerMs = lingerMs;
        this.retryBackoffMs = retryBackoffMs;
        this.time = time;
        this.metrics = metrics;
    }

    /**
     * What to call so that the network thread looks at once: {@code batchReady} when a partition's
     * batch is new or full, {@code wakeup} when a flush or close wants everything sent.
     */
    void onBatchReady(Consumer<TopicPartition> batchReady, Runnable wakeup) {
        this.batchReady = batchReady;
        this.wakeup = wakeup;
    }

    /** Numbers batches as they are drained, and holds back those that must wait for their turn (see {@link IdempotenceManager}). */
    void useIdempotence(IdempotenceManager idempotence) {
        this.idempotence = idempotence;
    }

    /**
     * Appends a record to its partition's batch, opening a batch if there is none with room,
     * which may block up to {@code maxBlockMs} for buffer memory.
     *
     * @param partition the partition, or {@link Partitioner#UNASSIGNED} for the topic's sticky partition
     * @throws io.millrace.common.errors.TimeoutException when no memory came free in time
     */
    public FutureRecordMetadata append(String topic, int partition, int partitionCount, long timestamp, byte[] key,
                                       byte[] value, Header[] headers, Callback callback, long maxBlockMs)
        throws InterruptedException {
        boolean sticky = partition == Partitioner.UNASSIGNED;
        PartitionQueue target = partitionQueue(topic, sticky ? this.sticky.partition(topic, partitionCount) : partition);
        FutureRecordMetadata future = appendToOpenBatch(target, timestamp, key, value, headers, callback);
        if (future == null && sticky) {
            target = partitionQueue(topic, this.sticky.next(topic, partitionCount, target.tp().partition()));
            future = appendToOpenBatch(target, timestamp, key, value, headers, callback);
        }
        return future != null ? future : appendToNewBatch(target, timestamp, key, value, headers, callback, maxBlockMs);
    }

    /**
     * The queue of {@code topic}'s {@code partition}. Records come in runs to one partition (a sticky
     * partition's batch, a key's partition), so the last queue looked up is kept and a run skips the map.
     */
    private PartitionQueue partitionQueue(String topic, int partition) {
        PartitionQueue last = lastQueue;
        if (last != null && last.tp().partition() == partition && last.tp().topic().equals(topic)) {
            return last;
        }
        TopicPartition tp = new TopicPartition(topic, partition);
        PartitionQueue found = new PartitionQueue(tp, queueOf(tp));
        lastQueue = found;
        return found;
    }

    private FutureRecordMetadata appendToOpenBatch(PartitionQueue target, long timestamp, byte[] key, byte[] value,
                                                   Header[] headers, Callback callback) {
        Deque<ProducerBatch> queue = target.queue();
        synchronized (queue) {
            ensureOpen();
            return tryAppendLast(target.tp(), queue, timestamp, key, value, headers, callback);
        }
    }

    private FutureRecordMetadata appendToNewBatch(PartitionQueue target, long timestamp, byte[] key, byte[] value,
                                                  Header[] headers, Callback callback, long maxBlockMs)
        throws InterruptedException {
        int size = Math.max(batchSize, RecordBatchBuilder.sizeOfSingleRecordBatch(
            key == null ? null : ByteBuffer.wrap(key), value == null ? null : ByteBuffer.wrap(value), headers));
        ByteBuffer buffer = allocate(size, maxBlockMs);
        TopicPartition tp = target.tp();
        Deque<ProducerBatch> queue = target.queue();
        FutureRecordMetadata future;
        synchronized (queue) {
            ensureOpen(buffer);
            // another thread may have opened a batch while this one waited for memory
            future = tryAppendLast(tp, queue, timestamp, key, value, headers, callback);
            if (future != null) {
                pool.deallocate(buffer);
                return future;
            }
            ProducerBatch batch = new ProducerBatch(tp, buffer, compression, size, time.milliseconds(),
                batchSequence.incrementAndGet());
            future = batch.tryAppend(timestamp, key, value, headers, callback);
            queue.addLast(batch);
            incomplete.add(batch);
        }
        batchReady.accept(tp);
        return future;
    }

    /**
     * Queues the records of a record batch from elsewhere for {@code tp}, behind what is queued there.
     * An uncompressed batch smaller than batch.size has its records join the partition's open batch, or
     * a new one, as records sent one by one would, but copied as they are (only their deltas written
     * again, see {@link RecordBatchBuilder#tryAppendRecordsOf}): small fetched batches make full-sized
     * requests, in this producer's codec. Any other batch is queued whole, its producer state cleared:
     * inflating a compressed one would cost more than its request, and an uncompressed one of batch.size
     * or more, with no codec to apply, would fill a batch of its own anyway, so reading and writing each
     * of its records again would gain nothing. (Sending smaller ones whole as well saves the copier's
     * thread that work too, but makes smaller requests, which cost Apache Kafka's brokers more than it
     * saves.) Either way the broker gives the records their offsets, and allocating may block up to
     * {@code maxBlockMs}.
     *
     * @param batch a valid, non-transactional CreateTime magic-2 batch with one record per offset; left untouched
     */
    public FutureRecordMetadata appendBatch(TopicPartition tp, RecordBatch batch, Callback callback, long maxBlockMs)
        throws InterruptedException {
        if (batch.compressionType() == CompressionType.NONE && !goesWhole(batch)) {
            return appendRecordsOf(tp, batch, callback, maxBlockMs);
        }
        ByteBuffer buffer = allocate(Math.max(batch.sizeInBytes(), batchSize), maxBlockMs);
        buffer.clear();
        buffer.put(batch.slice()).flip();
        RecordBatch copy = RecordBatch.wrap(buffer);
        copy.setBaseOffset(0L);
        copy.setPartitionLeaderEpoch(RecordBatch.NO_PARTITION_LEADER_EPOCH);
        if (copy.producerId() != RecordBatch.NO_PRODUCER_ID || copy.baseSequence() != RecordBatch.NO_SEQUENCE) {
            copy.clearProducerState();
        }
        Deque<ProducerBatch> queue = queueOf(tp);
        ProducerBatch queued;
        synchronized (queue) {
            ensureOpen(buffer);
            queued = ProducerBatch.ofBuilt(tp, buffer, time.milliseconds(), batchSequence.incrementAndGet(),
                batch.recordCount(), batch.baseTimestamp(), callback);
            queue.addLast(queued);
            incomplete.add(queued);
        }
        batchReady.accept(tp);
        return queued.firstRecord();
    }

    /** Whether an uncompressed batch is queued as it is rather than record by record (see {@link #appendBatch}). */
    private boolean goesWhole(RecordBatch batch) {
        return compression == CompressionType.NONE && batch.sizeInBytes() >= batchSize;
    }

    private FutureRecordMetadata appendRecordsOf(TopicPartition tp, RecordBatch batch, Callback callback, long maxBlockMs)
        throws InterruptedException {
        Deque<ProducerBatch> queue = queueOf(tp);
        FutureRecordMetadata future;
        synchronized (queue) {
            ensureOpen();
            future = tryAppendRecordsToLast(tp, queue, batch, callback);
        }
        if (future != null) {
            return future;
        }
        int size = Math.max(batchSize, RecordBatchBuilder.sizeOfReframed(batch));
        ByteBuffer buffer = allocate(size, maxBlockMs);
        synchronized (queue) {
            ensureOpen(buffer);
            future = tryAppendRecordsToLast(tp, queue, batch, callback);   // another thread may have opened one
            if (future != null) {
                pool.deallocate(buffer);
                return future;
            }
            ProducerBatch opened = new ProducerBatch(tp, buffer, compression, size, time.milliseconds(),
                batchSequence.incrementAndGet());
            future = opened.tryAppendRecords(batch, callback);
            queue.addLast(opened);
            incomplete.add(opened);
        }
        batchReady.accept(tp);
        return future;
    }

    private FutureRecordMetadata tryAppendRecordsToLast(TopicPartition tp, Deque<ProducerBatch> queue, RecordBatch batch,
                                                        Callback callback) {
        ProducerBatch last = queue.peekLast();
        FutureRecordMetadata future = last == null ? null : last.tryAppendRecords(batch, callback);
        if (future != null && last.isFull()) {
            batchReady.accept(tp);
        }
        return future;
    }

    private FutureRecordMetadata tryAppendLast(TopicPartition tp, Deque<ProducerBatch> queue, long timestamp,
                                               byte[] key, byte[] value, Header[] headers, Callback callback) {
        ProducerBatch last = queue.peekLast();
        if (last == null) {
            return null;
        }
        FutureRecordMetadata future = last.tryAppend(timestamp, key, value, headers, callback);
        if (future != null && last.isFull()) {
            batchReady.accept(tp);
        }
        return future;
    }

    private Deque<ProducerBatch> queueOf(TopicPartition tp) {
        Deque<ProducerBatch> queue = batches.get(tp);
        return queue != null ? queue : batches.computeIfAbsent(tp, k -> new ArrayDeque<>());
    }

    private ByteBuffer allocate(int size, long maxBlockMs) throws InterruptedException {
        long startNs = time.nanoseconds();
        ByteBuffer buffer = pool.allocate(size, maxBlockMs);
        metrics.recordSendBlocked(time.nanoseconds() - startNs);
        return buffer;
    }

    /** Checks the accumulator is open, giving {@code buffer} back to the pool if it is not. */
    private void ensureOpen(ByteBuffer buffer) {
        try {
            ensureOpen();
        } catch (IllegalStateException e) {
            pool.deallocate(buffer);
            throw e;
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("Cannot send after the producer is closed");
        }
    }

    /**
     * The leaders that have a batch to send now, skipping {@code muted} partitions (a batch of theirs
     * is in flight and order must be kept).
     */
    ReadyCheck ready(Cluster cluster, long nowMs, Set<TopicPartition> muted) {
        Set<Node> ready = new HashSet<>();
        Set<String> unknownLeaders = new HashSet<>();
        long nextCheckMs = Long.MAX_VALUE;
        boolean sendAtOnce = closed || flushesInProgress.get() > 0 || pool.queued() > 0;
        for (Map.Entry<TopicPartition, Deque<ProducerBatch>> entry : batches.entrySet()) {
            TopicPartition tp = entry.getKey();
            Deque<ProducerBatch> queue = entry.getValue();
            synchronized (queue) {
                ProducerBatch first = queue.peekFirst();
                if (first == null || muted.contains(tp)) {
                    continue;
                }
                Node leader = cluster.leaderFor(tp);
                if (leader == null) {
                    unknownLeaders.add(tp.topic());
                    continue;
                }
                long waitMs = waitBeforeSending(first, queue.size() > 1 || sendAtOnce, nowMs);
                if (waitMs <= 0) {
                    ready.add(leader);
                } else {
                    nextCheckMs = Math.min(nextCheckMs, waitMs);
                }
            }
        }
        return new ReadyCheck(ready, nextCheckMs, unknownLeaders);
    }

    /** Milliseconds until the batch may go: retry backoff first, then linger unless it should go now. */
    private long waitBeforeSending(ProducerBatch batch, boolean sendNow, long nowMs) {
        if (batch.inRetry()) {
            return batch.retryAtMs() - nowMs;
        }
        if (sendNow || batch.isFull()) {
            return 0;
        }
        return batch.createdMs() + lingerMs - nowMs;
    }

    /**
     * Takes the first batch of each ready partition led by one of {@code nodes}, closing it for
     * appends, grouped by leader, keeping each group within {@code maxRequestSize} (a batch that
     * does not fit waits for the next request, unless it is the first).
     */
    Map<Node, List<ProducerBatch>> drain(Cluster cluster, Set<Node> nodes, int maxRequestSize, long nowMs,
                                         Set<TopicPartition> muted) {
        Map<Node, List<ProducerBatch>> drained = new HashMap<>();
        Map<Node, Integer> sizes = new HashMap<>();
        for (Map.Entry<TopicPartition, Deque<ProducerBatch>> entry : batches.entrySet()) {
            Node leader = cluster.leaderFor(entry.getKey());
            if (leader == null || !nodes.contains(leader) || muted.contains(entry.getKey())) {
                continue;
            }
            int size = sizes.getOrDefault(leader, 0);
            ProducerBatch batch = pollIfSendable(entry.getValue(), size == 0 ? Integer.MAX_VALUE : maxRequestSize - size, nowMs);
            if (batch != null) {
                drained.computeIfAbsent(leader, n -> new ArrayList<>()).add(batch);
                sizes.put(leader, size + batch.sizeInBytes());
            }
        }
        return drained;
    }

    private ProducerBatch pollIfSendable(Deque<ProducerBatch> queue, int room, long nowMs) {
        ProducerBatch first;
        synchronized (queue) {
            first = queue.peekFirst();
            if (first == null || (first.inRetry() && first.retryAtMs() > nowMs) || first.sizeInBytes() > room
                || (idempotence != null && !idempotence.mayDrain(first))) {
                return null;
            }
            queue.pollFirst();
            if (idempotence != null) {
                idempotence.numberIfNew(first);   // before close(), so that the builder writes the numbering
            }
        }
        // Closed outside the lock: closing computes the CRC of up to batch.size bytes, which threads
        // appending to the partition's next batch need not wait for. No appender reaches a batch that
        // is no longer queued.
        first.close();
        return first;
    }

    /**
     * Puts a batch that failed with a retriable error back at the front of its queue, in sequence
     * order among other retried batches, to go again after the retry backoff.
     */
    void reenqueue(ProducerBatch batch, long nowMs) {
        batch.backOffUntil(nowMs + retryBackoffMs);
        Deque<ProducerBatch> queue = queueOf(batch.topicPartition());
        synchronized (queue) {
            Deque<ProducerBatch> earlier = new ArrayDeque<>();
            while (!queue.isEmpty() && queue.peekFirst().sequence() < batch.sequence()) {
                earlier.push(queue.pollFirst());
            }
            queue.addFirst(batch);
            while (!earlier.isEmpty()) {
                queue.addFirst(earlier.pop());
            }
        }
    }

    /** Removes and returns the queued batches created {@code deliveryTimeoutMs} or more ago. */
    List<ProducerBatch> expiredBatches(long nowMs, long deliveryTimeoutMs) {
        List<ProducerBatch> expired = new ArrayList<>();
        for (Deque<ProducerBatch> queue : batches.values()) {
            synchronized (queue) {
                while (!queue.isEmpty() && nowMs - queue.peekFirst().createdMs() >= deliveryTimeoutMs) {
                    ProducerBatch batch = queue.pollFirst();
                    batch.abortBuilder();
                    expired.add(batch);
                }
            }
        }
        return expired;
    }

    /** Removes every queued batch, for a forced close; in-flight ones are in {@link #incompleteBatches()}. */
    List<ProducerBatch> removeAllQueued() {
        List<ProducerBatch> removed = new ArrayList<>();
        for (Deque<ProducerBatch> queue : batches.values()) {
            synchronized (queue) {
                for (ProducerBatch batch : queue) {
                    batch.abortBuilder();
                    removed.add(batch);
                }
                queue.clear();
            }
        }
        return removed;
    }

    /**
     * Returns a finished batch's memory to the pool. The batch still counts as incomplete until
     * {@link #completed} says its callbacks have run, so a flush waits for them.
     *
     * @param mayStillBeSending whether a request carrying the batch may not be written out yet (it failed
     *                          after being sent, e.g. timed out): its buffer is then not reused
     */
    void deallocate(ProducerBatch batch, boolean mayStillBeSending) {
        if (incomplete.contains(batch) && batch.releaseMemory()) {
            if (mayStillBeSending) {
                pool.release(batch.pooledBuffer());
            } else {
                pool.deallocate(batch.pooledBuffer());
            }
        }
    }

    /** The batch's records are complete and their callbacks have run. */
    void completed(ProducerBatch batch) {
        incomplete.remove(batch);
    }

    /** Whether any batch is not yet complete: queued, in flight, or with callbacks still to run. */
    public boolean hasIncomplete() {
        return !incomplete.isEmpty();
    }

    List<ProducerBatch> incompleteBatches() {
        return new ArrayList<>(incomplete);
    }

    /** Whether any batch is still queued (not yet drained). */
    boolean hasQueued() {
        for (Deque<ProducerBatch> queue : batches.values()) {
            synchronized (queue) {
                if (!queue.isEmpty()) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Makes every batch ready at once until {@link #endFlush()}. */
    public void beginFlush() {
        flushesInProgress.incrementAndGet();
        wakeup.run();
    }

    /** Waits until every batch that existed when called is complete and its callbacks have run, as Kafka's flush does. */
    public void awaitFlushCompletion() throws InterruptedException {
        for (ProducerBatch batch : incompleteBatches()) {
            batch.awaitCallbacks();
        }
    }

    public void endFlush() {
        flushesInProgress.decrementAndGet();
    }

    /** Refuses further appends; what is queued is sent without lingering. */
    public void close() {
        closed = true;
        wakeup.run();
    }
}
