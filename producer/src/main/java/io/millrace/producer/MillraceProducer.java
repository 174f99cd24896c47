package io.millrace.producer;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.Cluster;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.PartitionInfo;
import io.millrace.common.config.ConfigException;
import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.InvalidPartitionsException;
import io.millrace.common.errors.MillraceException;
import io.millrace.common.errors.RecordTooLargeException;
import io.millrace.common.record.Header;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.record.TimestampType;
import io.millrace.common.serialization.SerializationException;
import io.millrace.common.serialization.Serializer;
import io.millrace.common.utils.Time;
import io.millrace.producer.internals.BufferPool;
import io.millrace.producer.internals.ProducerMetrics;
import io.millrace.producer.internals.RecordAccumulator;
import io.millrace.producer.internals.Sender;
import io.millrace.producer.internals.SenderSettings;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Millrace's {@link Producer}: records are serialized and partitioned on the calling thread,
 * encoded straight into their partition's batch (a buffer from a bounded pool), and sent by one
 * background network thread, which puts every batch bound for the same broker into one Produce
 * request. It speaks the Kafka protocol, so it works against Apache Kafka brokers as well.
 *
 * <pre>{@code
 * Map<String, Object> props = Map.of("bootstrap.servers", "localhost:9092", "linger.ms", 10);
 * try (Producer<String, String> producer = new MillraceProducer<>(props, new StringSerializer(), new StringSerializer())) {
 *     producer.send(new ProducerRecord<>("events", "user-42", "clicked"), (metadata, e) -> { ... });
 * }
 * }</pre>
 *
 * <p>Thread-safe. Settings: {@link ProducerConfig}.
 */
public final class MillraceProducer<K, V> implements Producer<K, V> {

    private static final Logger log = LoggerFactory.getLogger(MillraceProducer.class);
    private static final Header[] NO_HEADERS = new Header[0];

    private final String clientId;
    private final ProducerConfig config;
    private final Serializer<K> keySerializer;
    private final Serializer<V> valueSerializer;
    private final Partitioner partitioner;
    private final Time time;
    private final NetworkClient client;
    private final Metadata metadata;
    private LastPartitionCount lastPartitionCount;
    private final BufferPool pool;
    private final RecordAccumulator accumulator;
    private final Sender sender;
    private final ProducerMetrics metrics;
    private final long maxBlockMs;
    /**
     * The most a header-less record adds around its key and value as a batch of its own: the batch
     * header, then varints of at most 5 bytes for the body size and the key and value lengths, and
     * a byte each for attributes, timestamp delta, offset delta and header count.
     */
    static final int MAX_FRAMING_WITHOUT_HEADERS = RecordBatch.HEADER_SIZE + 5 + 4 + 5 + 5;
    private final int maxRecordSize;
    private final List<ProducerListener> listeners = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    /** A producer whose serializers are named by {@code key.serializer} and {@code value.serializer}. */
    public MillraceProducer(Map<String, ?> configs) {
        this(configs, null, null);
    }

    /** A producer with these serializers (null: the class named in the configuration). */
    public MillraceProducer(Map<String, ?> configs, Serializer<K> keySerializer, Serializer<V> valueSerializer) {
        this(new ProducerConfig(configs), keySerializer, valueSerializer, Time.SYSTEM);
    }

    MillraceProducer(ProducerConfig config, Serializer<K> keySerializer, Serializer<V> valueSerializer, Time time) {
        this.config = config;
        this.time = time;
        this.clientId = CommonClientConfigs.clientId(config, "producer");
        this.keySerializer = serializer(keySerializer, ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, true);
        this.valueSerializer = serializer(valueSerializer, ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, false);
        this.partitioner = partitioner(config);
        this.maxBlockMs = config.maxBlockMs();
        this.maxRecordSize = (int) Math.min(config.maxRequestSize(), config.bufferMemory());
        this.metrics = new ProducerMetrics(clientId, time);
        this.pool = new BufferPool(config.bufferMemory(), config.batchSize(), time);
        metrics.bufferPool(pool);
        this.accumulator = new RecordAccumulator(pool, config.batchSize(), config.compressionType(), config.lingerMs(),
            config.retryBackoffMs(), time, metrics);
        this.client = new NetworkClient(CommonClientConfigs.networkOptions(config, clientId));
        this.metadata = new Metadata(client, CommonClientConfigs.bootstrap(config), config.retryBackoffMs(),
            config.metadataMaxAgeMs());
        this.sender = new Sender(client, metadata, accumulator, settings(config), metrics, time, listeners);
        sender.start();
        metrics.register();
        log.info("Producer {} started", clientId);
    }

    private static SenderSettings settings(ProducerConfig config) {
        return new SenderSettings(config.acks(), config.maxInFlightRequestsPerConnection(), config.maxRequestSize(),
            config.requestTimeoutMs(), config.retries(), config.retryBackoffMs(), config.deliveryTimeoutMs(),
            config.idempotence());
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<K, V> record) {
        return send(record, null);
    }

    @Override
    public Future<RecordMetadata> send(ProducerRecord<K, V> record, Callback callback) {
        if (closed) {
            throw new IllegalStateException("Cannot send after the producer is closed");
        }
        // One clock read per record: it is the deadline's start and the record's timestamp both.
        long nowMs = time.milliseconds();
        // A send from a callback runs on the I/O thread, the one that frees memory and fetches metadata:
        // waiting there would only stall every other send, so it fails at once instead.
        long deadlineMs = client.inIoThread() ? nowMs : nowMs + maxBlockMs;
        try {
            int partitionCount = knownPartitionCount(record.topic());
            if (partitionCount <= 0) {
                partitionCount = awaitPartitionCount(record.topic(), deadlineMs);
                nowMs = time.milliseconds();
            }
            if (record.partition() != null && record.partition() >= partitionCount) {
                partitionCount = awaitPartition(record.topic(), record.partition(), partitionCount, deadlineMs);
                nowMs = time.milliseconds();
            }
            byte[] key = serialize(keySerializer, record, record.key(), "key");
            byte[] value = serialize(valueSerializer, record, record.value(), "value");
            int partition = choosePartition(record, key, value, partitionCount);
            Header[] headers = record.headers().isEmpty() ? NO_HEADERS : record.headers().toArray(NO_HEADERS);
            ensureFits(record.topic(), key, value, headers);
            long timestamp = record.timestamp() != null ? record.timestamp() : nowMs;
            return accumulator.append(record.topic(), partition, partitionCount, timestamp, key, value, headers,
                callback, Math.max(0, deadlineMs - nowMs));
        } catch (SerializationException | IllegalStateException e) {
            metrics.recordError();
            throw e;
        } catch (MillraceException e) {
            return failed(record, callback, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            metrics.recordError();
            throw new MillraceException("Interrupted while sending to " + record.topic(), e);
        }
    }

    /**
     * Sends the records of a record batch fetched elsewhere to one partition, without decoding them:
     * how the mirror copies. The records keep their timestamps, keys, values and headers; the broker
     * gives them their offsets. The records of an uncompressed batch smaller than {@code batch.size}
     * join the partition's open batch (their bytes copied, only their offset and timestamp deltas
     * written again), so small fetched batches still make requests of {@code batch.size}, under this
     * producer's {@code compression.type}; so do those of any uncompressed batch when this producer
     * compresses. Any other batch (compressed, or one that would fill a batch of its own) goes whole,
     * keeping its codec, with the source producer's id, epoch and sequence cleared, as they mean nothing
     * in this cluster. The callback runs once, with the metadata of the batch's first record. Batches
     * to one partition, and records sent to it with {@link #send}, go out in the order they were handed in.
     *
     * @param batch a valid magic-2 CreateTime batch, neither transactional, nor a control batch, nor thinned
     *              by compaction (one record per offset); the bytes are copied before this returns
     * @throws IllegalArgumentException for any other batch
     */
    public Future<RecordMetadata> sendRecordBatch(String topic, int partition, RecordBatch batch, Callback callback) {
        if (closed) {
            throw new IllegalStateException("Cannot send after the producer is closed");
        }
        ensureCopyable(batch);
        long nowMs = time.milliseconds();
        long deadlineMs = client.inIoThread() ? nowMs : nowMs + maxBlockMs;
        TopicPartition tp = new TopicPartition(topic, partition);
        try {
            int partitionCount = knownPartitionCount(topic);
            if (partitionCount <= 0) {
                partitionCount = awaitPartitionCount(topic, deadlineMs);
            }
            if (partition >= partitionCount) {
                partitionCount = awaitPartition(topic, partition, partitionCount, deadlineMs);
            }
            if (partition < 0 || partition >= partitionCount) {
                throw new InvalidPartitionsException("Partition " + partition + " of topic " + topic
                    + " does not exist: it has " + partitionCount + " partitions");
            }
            if (batch.sizeInBytes() > maxRecordSize) {
                throw new RecordTooLargeException("A record batch to " + tp + " is " + batch.sizeInBytes() + " bytes, more "
                    + "than max.request.size (" + config.maxRequestSize() + ") or buffer.memory (" + config.bufferMemory()
                    + ") allow");
            }
            return accumulator.appendBatch(tp, batch, callback, Math.max(0, deadlineMs - time.milliseconds()));
        } catch (MillraceException e) {
            metrics.recordError();
            if (callback != null) {
                callback.onCompletion(new RecordMetadata(tp, RecordMetadata.UNKNOWN_OFFSET, -1L, -1, -1), e);
            }
            return CompletableFuture.failedFuture(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            metrics.recordError();
            throw new MillraceException("Interrupted while sending to " + tp, e);
        }
    }

    /** Whether {@link #sendRecordBatch} takes a batch of this kind (its header says; the CRC is checked there). */
    public static boolean isCopyable(RecordBatch batch) {
        return batch.magic() == RecordBatch.MAGIC && !batch.isTransactional() && !batch.isControlBatch()
            && batch.timestampType() == TimestampType.CREATE_TIME && batch.recordCount() == batch.lastOffsetDelta() + 1;
    }

    private static void ensureCopyable(RecordBatch batch) {
        if (!isCopyable(batch)) {
            throw new IllegalArgumentException("Only a whole, non-transactional CreateTime batch is sent as it is: " + batch);
        }
        if (!batch.isValid()) {
            throw new CorruptRecordException("A record batch handed in to be sent as it is fails its CRC check: " + batch);
        }
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) throws InterruptedException {
        if (metadata.cluster().partitionCount(topic) <= 0) {
            awaitPartitionCount(topic, time.milliseconds() + maxBlockMs);
        }
        return metadata.cluster().partitionsForTopic(topic);
    }

    /**
     * The topic's partition count in the latest metadata, or -1 if unknown. Sends come in runs to one
     * topic, named by one string, so the last answer is kept and reused while the metadata snapshot and
     * the string are the very same objects: the lookup's hashing and string comparison cost as much as
     * writing a small record into its batch. The answer is immutable, so racing senders only redo a lookup.
     */
    private int knownPartitionCount(String topic) {
        Cluster cluster = metadata.snapshot();
        LastPartitionCount last = lastPartitionCount;
        if (last != null && last.cluster() == cluster && last.topic() == topic) {
            return last.count();
        }
        int count = cluster.partitionCount(topic);
        if (count > 0) {
            lastPartitionCount = new LastPartitionCount(cluster, topic, count);
        }
        return count;
    }

    private record LastPartitionCount(Cluster cluster, String topic, int count) {
    }

    /** The partition count of a topic whose metadata is not known yet, once it is. */
    private int awaitPartitionCount(String topic, long deadlineMs) throws InterruptedException {
        long startNs = time.nanoseconds();
        metadata.addTopics(java.util.List.of(topic));
        try {
            Cluster cluster = metadata.awaitTopic(topic, Math.max(0, deadlineMs - time.milliseconds()));
            return cluster.partitionCount(topic);
        } finally {
            metrics.recordMetadataWait(time.nanoseconds() - startNs);
        }
    }

    /**
     * Waits, as Kafka's producer does, up to the send's deadline for metadata that knows a partition
     * chosen explicitly: one just added to the topic (CreatePartitions) is missing from older
     * metadata. Returns the partition count last seen; the caller refuses a partition still beyond it.
     */
    private int awaitPartition(String topic, int partition, int partitionCount, long deadlineMs) throws InterruptedException {
        long startNs = time.nanoseconds();
        // Bounded by the real clock too, so that a send never outwaits max.block.ms whatever clock it was given.
        long endNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(Math.max(0, deadlineMs - time.milliseconds()));
        int count = partitionCount;
        try {
            while (partition >= count && System.nanoTime() < endNs) {
                long remainingMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(endNs - System.nanoTime()));
                count = metadata.requestUpdate().get(remainingMs, TimeUnit.MILLISECONDS).partitionCount(topic);
            }
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // no fresher metadata in time: the caller reports the partition as missing
        } finally {
            metrics.recordMetadataWait(time.nanoseconds() - startNs);
        }
        return count;
    }

    private <T> byte[] serialize(Serializer<T> serializer, ProducerRecord<K, V> record, T data, String what) {
        try {
            return serializer.serialize(record.topic(), record.headers(), data);
        } catch (SerializationException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new SerializationException("Cannot serialize the " + what + " of a record to " + record.topic()
                + " with " + serializer.getClass().getName() + ": " + e, e);
        }
    }

    private int choosePartition(ProducerRecord<K, V> record, byte[] key, byte[] value, int partitionCount) {
        Integer partition = record.partition();
        if (partition == null) {
            partition = partitioner.partition(record.topic(), record.key(), key, record.value(), value, partitionCount);
        }
        if (partition != Partitioner.UNASSIGNED && (partition < 0 || partition >= partitionCount)) {
            throw new InvalidPartitionsException("Partition " + partition + " of topic " + record.topic()
                + " does not exist: it has " + partitionCount + " partitions");
        }
        return partition;
    }

    private void ensureFits(String topic, byte[] key, byte[] value, Header[] headers) {
        int keyAndValue = (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        if (headers.length == 0 && keyAndValue + MAX_FRAMING_WITHOUT_HEADERS <= maxRecordSize) {
            return; // the common case, decided without sizing the record a first time
        }
        int size = RecordBatchBuilder.sizeOfSingleRecordBatch(key == null ? null : ByteBuffer.wrap(key),
            value == null ? null : ByteBuffer.wrap(value), headers);
        if (size > maxRecordSize) {
            throw new RecordTooLargeException("A record to " + topic + " is " + size + " bytes as a batch, more than "
                + "max.request.size (" + config.maxRequestSize() + ") or buffer.memory (" + config.bufferMemory() + ") allow");
        }
    }

    private Future<RecordMetadata> failed(ProducerRecord<K, V> record, Callback callback, MillraceException e) {
        metrics.recordError();
        long timestamp = record.timestamp() != null ? record.timestamp() : time.milliseconds();
        for (ProducerListener listener : listeners) {
            try {
                listener.onRejection(record.topic(), timestamp, e);
            } catch (RuntimeException thrown) {
                log.error("A producer listener threw on a record rejected for {}", record.topic(), thrown);
            }
        }
        if (callback != null) {
            int partition = record.partition() == null ? -1 : record.partition();
            callback.onCompletion(new RecordMetadata(new TopicPartition(record.topic(), Math.max(partition, 0)),
                RecordMetadata.UNKNOWN_OFFSET, -1L, -1, -1), e);
        }
        return CompletableFuture.failedFuture(e);
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException when called from a callback: callbacks run on the I/O thread,
     *         which is the one thread that could complete the flush
     */
    @Override
    public void flush() throws InterruptedException {
        if (client.inIoThread()) {
            throw new IllegalStateException("flush() called from a producer callback would wait forever for the "
                + "thread it runs on; flush from an application thread instead");
        }
        accumulator.beginFlush();
        try {
            accumulator.awaitFlushCompletion();
        } finally {
            accumulator.endFlush();
        }
    }

    @Override
    public void close() {
        close(Duration.ofMillis(Long.MAX_VALUE));
    }

    @Override
    public void close(Duration timeout) {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        accumulator.close();
        pool.close();
        if (client.inIoThread()) {
            closeFromIoThread();
            return;
        }
        sender.initiateClose();
        if (!awaitNetworkThread(timeout.toMillis())) {
            // a close with no timeout after a flush finds nothing left; only a loss is worth a warning
            if (accumulator.hasIncomplete()) {
                log.warn("Producer {} did not send everything within {} ms; failing what is left", clientId, timeout.toMillis());
            }
            sender.forceClose();
            awaitNetworkThread(Long.MAX_VALUE);
        }
        releaseResources();
    }

    /**
     * A close from a callback: the I/O thread cannot wait for itself, so, as Kafka's producer does, the
     * timeout becomes zero. What is not yet acknowledged fails, and the resources are released on a
     * thread of their own once the sender has stopped.
     */
    private void closeFromIoThread() {
        log.warn("Producer {} closed from a callback on its I/O thread: closing without waiting, failing the records "
            + "not yet acknowledged", clientId);
        sender.forceClose();
        Thread releaser = new Thread(() -> {
            awaitNetworkThread(Long.MAX_VALUE);
            releaseResources();
        }, "millrace-producer-close-" + clientId);
        releaser.setDaemon(true);
        releaser.start();
    }

    private void releaseResources() {
        metadata.close();
        client.close();
        closeQuietly(partitioner);
        closeQuietly(keySerializer);
        closeQuietly(valueSerializer);
        metrics.unregister();
        log.info("Producer {} closed", clientId);
    }

    private boolean awaitNetworkThread(long timeoutMs) {
        try {
            sender.finished().get(Math.max(1, Math.min(timeoutMs, Long.MAX_VALUE / 2)), TimeUnit.MILLISECONDS);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return sender.finished().isDone();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            return sender.finished().isDone();
        }
    }

    /**
     * Tells {@code listener} what becomes of every record sent one by one from now on, a batch at a time
     * (see {@link ProducerListener}); records sent before are not reported.
     */
    public void addListener(ProducerListener listener) {
        listeners.add(listener);
    }

    /** The MBean this producer's metrics are registered under. */
    public ProducerMetrics metrics() {
        return metrics;
    }

    public String clientId() {
        return clientId;
    }

    private <T> Serializer<T> serializer(Serializer<T> given, String classConfig, boolean isKey) {
        Serializer<T> serializer = given != null ? given : newInstance(config.getString(classConfig), classConfig);
        serializer.configure(config.originals(), isKey);
        return serializer;
    }

    private static Partitioner partitioner(ProducerConfig config) {
        String className = config.getString(ProducerConfig.PARTITIONER_CLASS_CONFIG);
        Partitioner partitioner = className == null ? new DefaultPartitioner()
            : newInstance(className, ProducerConfig.PARTITIONER_CLASS_CONFIG);
        partitioner.configure(config.originals());
        return partitioner;
    }

    @SuppressWarnings("unchecked")
    private static <T> T newInstance(String className, String setting) {
        if (className == null) {
            throw new ConfigException("Missing " + setting + ": give its class name or pass an instance to the constructor");
        }
        try {
            return (T) Class.forName(className).getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException e) {
            throw new ConfigException(setting, className, "cannot create an instance: " + e);
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            log.warn("Error closing {}", closeable, e);
        }
    }
}
