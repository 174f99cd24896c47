package io.millrace.producer.internals;

import io.millrace.producer.Callback;
import io.millrace.producer.RecordMetadata;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The future of one record: a view of its batch's outcome plus the record's place in the batch,
 * so a record costs one small object and no latch of its own. Also carries the record's callback.
 */
public final class FutureRecordMetadata implements Future<RecordMetadata> {

    private final ProducerBatch batch;
    private final int relativeOffset;
    private final long timestamp;
    private final int keySize;
    private final int valueSize;
    private final Callback callback;
    /** Whether this future stands for the records of a whole batch handed in, rather than for one record. */
    private final boolean wholeBatch;

    FutureRecordMetadata(ProducerBatch batch, int relativeOffset, long timestamp, int keySize, int valueSize, Callback callback,
                         boolean wholeBatch) {
        this.batch = batch;
        this.relativeOffset = relativeOffset;
        this.timestamp = timestamp;
        this.keySize = keySize;
        this.valueSize = valueSize;
        this.callback = callback;
        this.wholeBatch = wholeBatch;
    }

    @Override
    public RecordMetadata get() throws InterruptedException, ExecutionException {
        batch.awaitCompletion();
        return valueOrThrow();
    }

    @Override
    public RecordMetadata get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        if (!batch.awaitCompletion(timeout, unit)) {
            throw new TimeoutException("The record was not acknowledged within " + unit.toMillis(timeout) + " ms");
        }
        return valueOrThrow();
    }

    private RecordMetadata valueOrThrow() throws ExecutionException {
        RuntimeException error = batch.error();
        if (error != null) {
            throw new ExecutionException(error);
        }
        return metadata();
    }

    /** Where the record went; offset -1 when unknown (failure or acks=0). */
    RecordMetadata metadata() {
        long baseOffset = batch.baseOffset();
        long offset = baseOffset < 0 ? RecordMetadata.UNKNOWN_OFFSET : baseOffset + relativeOffset;
        long appendTime = batch.logAppendTime();
        return new RecordMetadata(batch.topicPartition(), offset, appendTime >= 0 ? appendTime : timestamp, keySize, valueSize);
    }

    long timestamp() {
        return timestamp;
    }

    int keySize() {
        return keySize;
    }

    int valueSize() {
        return valueSize;
    }

    boolean isWholeBatch() {
        return wholeBatch;
    }

    /** Runs the callback, if any, with the batch's outcome; called once, on the network thread. */
    void complete() {
        if (callback != null) {
            callback.onCompletion(metadata(), batch.error());
        }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return false;
    }

    @Override
    public boolean isCancelled() {
        return false;
    }

    @Override
    public boolean isDone() {
        return batch.isDone();
    }
}
