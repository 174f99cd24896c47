package io.millrace.producer;

import io.millrace.common.client.PartitionInfo;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;

/**
 * Sends records to partition leaders, batching them per partition. Thread-safe: many threads may
 * share one producer, which is also the fastest way to use it.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public interface Producer<K, V> extends AutoCloseable {

    /** As {@link #send(ProducerRecord, Callback)} without a callback. */
    Future<RecordMetadata> send(ProducerRecord<K, V> record);

    /**
     * Queues the record for sending and returns at once, unless the topic's metadata is not known
     * yet or the buffer memory is used up: then it blocks up to {@code max.block.ms}. The future
     * (and the callback, if not null) completes when the broker acknowledged the record as
     * {@code acks} asks, or failed: a {@link io.millrace.common.errors.TimeoutException} when
     * blocking lasted {@code max.block.ms} or delivery exceeded {@code delivery.timeout.ms}, a
     * {@link io.millrace.common.errors.RecordTooLargeException} for a record larger than
     * {@code max.request.size} or {@code buffer.memory}, a broker error otherwise.
     *
     * @throws io.millrace.common.serialization.SerializationException if the key or value cannot
     *         be serialized (the record is not sent; other sends are not affected)
     * @throws IllegalStateException after {@link #close()}
     */
    Future<RecordMetadata> send(ProducerRecord<K, V> record, Callback callback);

    /**
     * Sends every record queued so far without waiting for {@code linger.ms}, and blocks until
     * all of them are complete (acknowledged or failed).
     */
    void flush() throws InterruptedException;

    /**
     * The topic's partitions and their leaders, waiting up to {@code max.block.ms} for its metadata.
     *
     * @throws io.millrace.common.errors.TimeoutException if the topic does not appear in time
     */
    List<PartitionInfo> partitionsFor(String topic) throws InterruptedException;

    /**
     * Stops taking records, sends what is queued, and waits up to {@code timeout} for it to be
     * acknowledged; records still incomplete then fail. Idempotent.
     */
    void close(Duration timeout);

    /** {@link #close(Duration)} without a time limit. */
    @Override
    void close();
}
