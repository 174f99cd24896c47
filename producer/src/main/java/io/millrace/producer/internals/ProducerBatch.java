package io.millrace.producer.internals;

import io.millrace.common.TopicPartition;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Header;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.record.TimestampType;
import io.millrace.common.utils.ByteBufferOutputStream;
import io.millrace.producer.Callback;
import io.millrace.producer.CompletedBatch;
import io.millrace.producer.ProducerListener;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The records queued for one partition that go out together as one record batch. Records are
 * encoded straight into a buffer from the {@link BufferPool} as they are appended; {@link #close()}
 * finishes the batch, whose bytes then go into the Produce request as they are.
 *
 * <p>Appending and closing happen under the accumulator's lock of the partition's queue; once
 * closed, the batch belongs to the network thread, which alone completes it. Threads waiting on a
 * record's future see the outcome through the latch.
 */
public final class ProducerBatch implements CompletedBatch {

    private static final Logger log = LoggerFactory.getLogger(ProducerBatch.class);
    private static final int MAX_PRESIZED_RECORDS = 2048;

    private final TopicPartition topicPartition;
    private final ByteBuffer pooledBuffer;
    private final RecordBatchBuilder builder;
    private final int sizeLimit;
    private final long createdMs;
    private final long sequence;
    private final ArrayList<FutureRecordMetadata> records = new ArrayList<>();
    private final CountDownLatch done = new CountDownLatch(1);
    private final CountDownLatch callbacksDone = new CountDownLatch(1);
    private final AtomicBoolean memoryReleased = new AtomicBoolean();

    private int lastRecordSize;
    /** How many of the futures stand for a whole batch handed in; the rest are records sent one by one. */
    private int wholeBatches;
    /** Of the records sent one by one: their timestamps' range and their keys' and values' bytes. */
    private long minTimestamp = Long.MAX_VALUE;
    private long maxTimestamp = Long.MIN_VALUE;
    private long sentBytes;
    /** The records sent one by one, when some futures stand for whole batches; made at completion. */
    private List<FutureRecordMetadata> sentOneByOne;
    /** The records of a batch that came built (see {@link #ofBuilt}); otherwise one future per record. */
    private int builtRecords;
    private ByteBuffer built;
    private int attempts;
    private long retryAtMs;
    private boolean inRetry;
    /** An idempotent producer's numbering of the batch (see {@link IdempotenceManager}); none otherwise. */
    private ProducerIdAndEpoch producerIdAndEpoch = ProducerIdAndEpoch.NONE;
    private int baseSequence = RecordBatch.NO_SEQUENCE;
    /** Whether the batch was numbered again (a new epoch) since it was first sent. */
    private boolean sequenceReset;
    /** Whether the built bytes still carry an older numbering, to be rewritten when the batch is next drained. */
    private boolean producerStateStale;

    private volatile long baseOffset = -1L;
    private volatile long logAppendTime = -1L;
    private volatile RuntimeException error;
    private boolean completed;

    /**
     * @param sizeLimit the most bytes the batch may take uncompressed (batch.size, or more for a single large record)
     * @param sequence  the batch's place among its partition's batches, to keep their order when they are retried
     */
    ProducerBatch(TopicPartition topicPartition, ByteBuffer pooledBuffer, CompressionType compression, int sizeLimit,
                  long createdMs, long sequence) {
        this(topicPartition, pooledBuffer, new RecordBatchBuilder(new ByteBufferOutputStream(pooledBuffer), compression,
            TimestampType.CREATE_TIME, 0L, RecordBatch.NO_TIMESTAMP), sizeLimit, createdMs, sequence);
    }

    private ProducerBatch(TopicPartition topicPartition, ByteBuffer pooledBuffer, RecordBatchBuilder builder, int sizeLimit,
                          long createdMs, long sequence) {
        this.topicPartition = topicPartition;
        this.pooledBuffer = pooledBuffer;
        this.builder = builder;
        this.sizeLimit = sizeLimit;
        this.createdMs = createdMs;
        this.sequence = sequence;
    }

    /**
     * A batch that came whole, already in {@code pooledBuffer} (positioned at its start, limited at its
     * end): it goes out as it is, one future standing for all its records.
     */
    static ProducerBatch ofBuilt(TopicPartition topicPartition, ByteBuffer pooledBuffer, long createdMs, long sequence,
                                 int recordCount, long firstTimestamp, Callback callback) {
        ProducerBatch batch = new ProducerBatch(topicPartition, pooledBuffer, (RecordBatchBuilder) null, pooledBuffer.remaining(),
            createdMs, sequence);
        batch.built = pooledBuffer.slice();
        batch.builtRecords = recordCount;
        batch.records.add(new FutureRecordMetadata(batch, 0, firstTimestamp, -1, -1, callback, true));
        batch.wholeBatches = 1;
        return batch;
    }

    /**
     * Appends the record if it fits; returns its future, or null when the batch is full or closed.
     * hot path: encodes into the pooled buffer, allocates only the future
     */
    FutureRecordMetadata tryAppend(long timestamp, byte[] key, byte[] value, Header[] headers, Callback callback) {
        if (built != null) {
            return null;
        }
        int relativeOffset = builder.recordCount();
        int size = builder.tryAppend(timestamp, key, value, headers, sizeLimit);
        if (size < 0) {
            return null;
        }
        if (relativeOffset == 0) {
            // room for as many futures as records like this one fit (a 256 KiB batch of 200-byte records
            // grew its list 17 times), bounded for batches of tiny records that may leave after a few
            records.ensureCapacity(Math.min(sizeLimit / size + 1, MAX_PRESIZED_RECORDS));
        }
        lastRecordSize = size;
        minTimestamp = Math.min(minTimestamp, timestamp);
        maxTimestamp = Math.max(maxTimestamp, timestamp);
        sentBytes += (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        FutureRecordMetadata future = new FutureRecordMetadata(this, relativeOffset, timestamp,
            key == null ? -1 : key.length, value == null ? -1 : value.length, callback, false);
        records.add(future);
        return future;
    }

    /**
     * Appends the records of an uncompressed batch from elsewhere if they all fit (see
     * {@link RecordBatchBuilder#tryAppendRecordsOf}); returns one future standing for them, the metadata
     * of the first, or null when the batch is full or closed.
     */
    FutureRecordMetadata tryAppendRecords(RecordBatch source, Callback callback) {
        if (built != null) {
            return null;
        }
        int relativeOffset = builder.recordCount();
        int before = builder.estimatedSizeInBytes();
        if (builder.tryAppendRecordsOf(source, sizeLimit) < 0) {
            return null;
        }
        lastRecordSize = builder.estimatedSizeInBytes() - before;   // the next source batch is likely alike
        FutureRecordMetadata future = new FutureRecordMetadata(this, relativeOffset, source.baseTimestamp(), -1, -1, callback,
            true);
        records.add(future);
        wholeBatches++;
        return future;
    }

    /** The future of the batch's first record: for a batch that came built, the one that stands for all. */
    FutureRecordMetadata firstRecord() {
        return records.get(0);
    }

    /** Whether another record like the last one would not fit: the batch should go now. */
    boolean isFull() {
        return built != null || builder.estimatedSizeInBytes() + lastRecordSize > sizeLimit;
    }

    boolean isClosed() {
        return built != null;
    }

    /**
     * Finishes the batch (header, CRC, compression); appends fail from now on. Called again when the
     * batch is drained for a retry, it writes a numbering given since into the header: only then, as
     * until its previous request was answered the bytes may still have been on their way out.
     */
    void close() {
        if (built == null) {
            built = builder.build();
        } else if (producerStateStale) {
            RecordBatch.wrap(built, 0).setProducerState(producerIdAndEpoch.producerId(), producerIdAndEpoch.epoch(),
                baseSequence);
        }
        producerStateStale = false;
    }

    /**
     * Numbers the batch for an idempotent producer: its producer id, epoch and first sequence. Before
     * the batch is built the builder writes them; afterwards {@link #close()} rewrites the header.
     */
    void setProducerState(ProducerIdAndEpoch idAndEpoch, int baseSequence) {
        this.producerIdAndEpoch = idAndEpoch;
        this.baseSequence = baseSequence;
        if (built == null) {
            builder.producerState(idAndEpoch.producerId(), idAndEpoch.epoch(), baseSequence, false);
        } else {
            producerStateStale = true;
        }
    }

    /** Numbers a batch that was already numbered again, under a new epoch: it then starts at 0 with the broker. */
    void resetProducerState(ProducerIdAndEpoch idAndEpoch, int baseSequence) {
        setProducerState(idAndEpoch, baseSequence);
        sequenceReset = true;
    }

    boolean hasSequence() {
        return baseSequence != RecordBatch.NO_SEQUENCE;
    }

    int baseSequence() {
        return baseSequence;
    }

    /** The sequence of the batch's last record, wrapping as the broker counts. */
    int lastSequence() {
        return RecordBatch.incrementSequence(baseSequence, recordCount() - 1);
    }

    ProducerIdAndEpoch producerIdAndEpoch() {
        return producerIdAndEpoch;
    }

    boolean sequenceReset() {
        return sequenceReset;
    }

    /** The finished batch's bytes, shared with the pooled buffer (not a copy). */
    public ByteBuffer records() {
        return built.duplicate();
    }

    /** The buffer to give back to the pool once the batch is complete. */
    ByteBuffer pooledBuffer() {
        return pooledBuffer;
    }

    /**
     * Completes every record with the broker's answer or an error, runs their callbacks in record
     * order, then tells the listeners. Later calls are ignored (a response may arrive after a forced
     * abort). The pooled buffer may already be back in the pool: nothing reads the batch's bytes any more.
     * @return whether this call completed the batch
     */
    boolean complete(long baseOffset, long logAppendTime, RuntimeException error, List<ProducerListener> listeners) {
        if (completed) {
            return false;
        }
        completed = true;
        this.baseOffset = baseOffset;
        this.logAppendTime = logAppendTime;
        this.error = error;
        done.countDown();
        try {
            for (FutureRecordMetadata record : records) {
                try {
                    record.complete();
                } catch (RuntimeException e) {
                    log.error("A callback for a record sent to {} threw", topicPartition, e);
                }
            }
            for (ProducerListener listener : listeners) {
                try {
                    listener.onCompletion(this);
                } catch (RuntimeException e) {
                    log.error("A producer listener threw on a batch sent to {}", topicPartition, e);
                }
            }
        } finally {
            callbacksDone.countDown();
        }
        return true;
    }

    @Override
    public int sentRecords() {
        return sentOneByOne().size();
    }

    @Override
    public long timestamp(int i) {
        long appendTime = logAppendTime;
        return appendTime >= 0 ? appendTime : sentOneByOne().get(i).timestamp();
    }

    @Override
    public long minTimestamp() {
        long appendTime = logAppendTime;
        return appendTime >= 0 ? appendTime : minTimestamp;
    }

    @Override
    public long maxTimestamp() {
        long appendTime = logAppendTime;
        return appendTime >= 0 ? appendTime : maxTimestamp;
    }

    @Override
    public long sentBytes() {
        return sentBytes;
    }

    @Override
    public int serializedKeySize(int i) {
        return sentOneByOne().get(i).keySize();
    }

    @Override
    public int serializedValueSize(int i) {
        return sentOneByOne().get(i).valueSize();
    }

    private List<FutureRecordMetadata> sentOneByOne() {
        if (wholeBatches == 0) {
            return records;
        }
        if (sentOneByOne == null) {
            sentOneByOne = records.stream().filter(r -> !r.isWholeBatch()).toList();
        }
        return sentOneByOne;
    }

    /** Whether this call is the first to release the batch's memory; the pool must get it back once. */
    boolean releaseMemory() {
        return memoryReleased.compareAndSet(false, true);
    }

    /** Waits until the batch is complete and every record's callback has returned. */
    void awaitCallbacks() throws InterruptedException {
        callbacksDone.await();
    }

    /** Whether {@link #complete} ran; read on the network thread only. */
    boolean isCompleted() {
        return completed;
    }

    /** Abandons a batch that was never closed (its builder may hold native codec memory). */
    void abortBuilder() {
        if (built == null) {
            builder.abort();
        }
    }

    void awaitCompletion() throws InterruptedException {
        done.await();
    }

    boolean awaitCompletion(long timeout, TimeUnit unit) throws InterruptedException {
        return done.await(timeout, unit);
    }

    boolean isDone() {
        return done.getCount() == 0;
    }

    long baseOffset() {
        return baseOffset;
    }

    long logAppendTime() {
        return logAppendTime;
    }

    @Override
    public RuntimeException error() {
        return error;
    }

    @Override
    public TopicPartition topicPartition() {
        return topicPartition;
    }

    public int recordCount() {
        return builder == null ? builtRecords : builder.recordCount();
    }

    /** The batch's size in bytes once closed; before, its uncompressed estimate. */
    public int sizeInBytes() {
        return built != null ? built.remaining() : builder.estimatedSizeInBytes();
    }

    long createdMs() {
        return createdMs;
    }

    long sequence() {
        return sequence;
    }

    int attempts() {
        return attempts;
    }

    /** Counts a send of the batch. */
    void onSend() {
        attempts++;
    }

    /** Marks the batch as waiting to be sent again, not before {@code retryAtMs}. */
    void backOffUntil(long retryAtMs) {
        this.retryAtMs = retryAtMs;
        this.inRetry = true;
    }

    boolean inRetry() {
        return inRetry;
    }

    long retryAtMs() {
        return retryAtMs;
    }

    @Override
    public String toString() {
        return "ProducerBatch(" + topicPartition + ", " + records.size() + " records, attempt " + attempts
            + (hasSequence() ? ", " + producerIdAndEpoch + ", sequence " + baseSequence : "") + ")";
    }
}
