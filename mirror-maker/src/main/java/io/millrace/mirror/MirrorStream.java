package io.millrace.mirror;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.serialization.ByteArrayDeserializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.common.record.RecordBatch;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.FetchedBatches;
import io.millrace.consumer.PartitionReader;
import io.millrace.consumer.PollingConsumer;
import io.millrace.consumer.RebalanceListener;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import java.time.Duration;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One mirror thread: an embedded group consumer on one live cluster (a member of its group) whose
 * records go, bytes unchanged, into the offline cluster through the mirror's shared producer (or, with a
 * {@link MirrorMessageHandler}, whatever it makes of each record).
 *
 * <p>No loss: a source offset is committed only after the offline cluster acknowledged the record (every
 * record a handler made of it) and everything before it. Every commit, whoever makes it, first flushes
 * the producer and checks that no send failed: the periodic one on this thread, and the one a rebalance
 * or close makes on the consumer's rebalance thread ({@link #beforeCommit}, which also holds this thread
 * between polls so that no record is taken and not yet sent while it commits). A send that failed for
 * good, or a handler that threw, stops the stream and withholds every later commit, so the records after
 * it are mirrored again, never skipped.
 */
final class MirrorStream implements Runnable, RebalanceListener {

    private static final Logger LOG = LoggerFactory.getLogger(MirrorStream.class);
    private static final Duration POLL = Duration.ofMillis(100);
    private static final ByteArrayDeserializer BYTES = new ByteArrayDeserializer();

    private final String name;
    private final MirrorMakerConfig config;
    private final MillraceProducer<byte[], byte[]> producer;
    private final SchemaCopier schemas;   // null: no registries configured
    private final PollingConsumer<byte[], byte[]> consumer;
    private final NetworkClient sourceClient;
    private final Metadata sourceMetadata;
    private final PartitionReader sourceTopics;
    private final DuplicateDetector duplicates;
    private final MirrorAudit audit;   // null: no audit
    private final MirrorMessageHandler handler;   // null: each record is copied as it is
    private volatile boolean releaseCommitted;
    private final MirrorCounters counters;
    /** Stops the producer at once (Kafka MirrorMaker's abort.on.send.failure): nothing queued behind a refused record goes. */
    private final Runnable abort;
    private final Routes routes;
    /** Read once: a setting looked up per record costs the mirror thread measurably. */
    private final boolean keepsPartitions;
    private final boolean copiesBatches;
    /** Held from a poll through the sends of what it returned, and by a rebalance's flush-and-commit. */
    private final ReentrantLock taking = new ReentrantLock();
    private final AtomicReference<MirrorException> failure = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean running = true;

    MirrorStream(SourceCluster source, int index, MirrorMakerConfig config, MillraceProducer<byte[], byte[]> producer,
                 TargetTopics targets, SchemaCopier schemas, MirrorCounters counters, Runnable abort,
                 PartitionReader offline, MirrorAudit audit) {
        this.handler = config.newMessageHandler();   // first: a bad class name leaves nothing open
        this.audit = audit;
        this.name = source.name() + "-" + index;
        this.config = config;
        this.producer = producer;
        this.schemas = schemas;
        this.counters = counters;
        this.abort = abort;
        Map<String, Object> settings = new HashMap<>(source.consumerSettings());
        settings.remove(SourceCluster.CLUSTER_NAME_CONFIG);
        settings.remove(SourceCluster.SCHEMA_REGISTRY_URL_CONFIG);
        // commits happen only after a flush, here or in beforeCommit: never on the consumer's own schedule
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        // an aborted transaction's records were never data: the offline cluster gets what consumers see
        settings.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        ConsumerConfig consumerConfig = new ConsumerConfig(settings);
        this.sourceClient = new NetworkClient(CommonClientConfigs.networkOptions(consumerConfig, "millrace-mirror-" + name));
        this.sourceMetadata = new Metadata(sourceClient, CommonClientConfigs.bootstrap(consumerConfig),
            consumerConfig.getLong(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG),
            consumerConfig.getLong(CommonClientConfigs.METADATA_MAX_AGE_MS_CONFIG));
        this.sourceTopics = new PartitionReader(consumerConfig, sourceClient, sourceMetadata);
        this.routes = new Routes(source.name(), config, counters, targets, sourceTopics, new TopicSettings(sourceClient,
            sourceMetadata, consumerConfig.getInt(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG),
            config.topicConfigsExcluded(), source.name()));
        this.consumer = new PollingConsumer<>(consumerConfig, new ByteArrayDeserializer(), new ByteArrayDeserializer(), 2_000);
        consumer.groupConsumer().setRebalanceListener(this);
        counters.lagSource(source.name(), consumer.groupConsumer()::lag);
        consumer.groupConsumer().setOffsetResetListener((tp, from, to) -> {
            if (to > from) {
                lostRange(new MirrorCounters.LostRange(source.name(), tp.topic(), tp.partition(), from, to));
            }
        });
        this.duplicates = new DuplicateDetector(offline, config.duplicateCheckMaxRecords(), name);
        this.keepsPartitions = config.keepsPartitions();
        // a whole batch keeps its partition: with key placement every record is placed on its own; a
        // handler sees every record
        this.copiesBatches = config.copiesBatches() && keepsPartitions && handler == null;
        this.thread = new Thread(this, "millrace-mirror-" + name);
    }

    void start() {
        consumer.subscribe(config.topicFilter());
        thread.start();
    }

    /** Never a silent reset: the range retention deleted before it was mirrored is logged, counted, and may stop the stream. */
    private void lostRange(MirrorCounters.LostRange range) {
        counters.lost(range);
        if (audit != null) {
            audit.lost(range);
        }
        LOG.warn("Lost range in {}: {}-{} offsets {} to {} ({} records) were deleted before they were mirrored",
            range.cluster(), range.topic(), range.partition(), range.from(), range.to() - 1, range.count());
        if (config.stopOnLostRange()) {
            failure.compareAndSet(null, new MirrorException("Records " + range.from() + " to " + (range.to() - 1) + " of "
                + range.topic() + "-" + range.partition() + " in " + range.cluster() + " were deleted before they were "
                + "mirrored (" + MirrorMakerConfig.LOST_RANGE_POLICY_CONFIG + "=stop)"));
        }
    }

    /** Why the stream stopped on its own, if it did. */
    MirrorException failure() {
        return failure.get();
    }

    boolean isAlive() {
        return thread.isAlive();
    }

    @Override
    public void run() {
        long nextCommit = System.nanoTime() + config.commitIntervalMs() * 1_000_000L;
        try {
            while (running) {
                mirrorOneBatch();
                if (System.nanoTime() >= nextCommit) {
                    periodicCommit();
                    nextCommit = System.nanoTime() + config.commitIntervalMs() * 1_000_000L;
                }
            }
            commitOnStop();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (MirrorException e) {
            failure.compareAndSet(null, e);
            LOG.error("Mirror stream {} stopped: {}. Nothing after that record is committed.", name, e.getMessage());
        } catch (RuntimeException e) {
            failure.compareAndSet(null, new MirrorException("Mirror stream " + name + " failed: " + e, e));
            LOG.error("Mirror stream {} failed; nothing after its last commit is committed", name, e);
        }
    }

    private void mirrorOneBatch() throws InterruptedException {
        taking.lock();
        try {
            throwIfFailed();
            if (copiesBatches) {
                for (FetchedBatches chunk : consumer.pollBatches(POLL)) {
                    copy(chunk);
                }
            } else {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    send(record);
                }
            }
        } catch (RuntimeException e) {
            // failed while still held, so that a rebalance's commit waiting for the lock withholds itself:
            // this poll's records after the failed one were never sent
            failure.compareAndSet(null, e instanceof MirrorException m ? m
                : new MirrorException("Mirror stream " + name + " failed: " + e, e));
            throw e;
        } finally {
            taking.unlock();
        }
    }

    /**
     * Copies one partition's fetched batches: each whole where it can be, else its records one by one
     * (see {@link MirrorMakerConfig#BATCH_COPY_ENABLED_CONFIG} for when).
     */
    private void copy(FetchedBatches chunk) throws InterruptedException {
        TopicPartition source = chunk.partition();
        long from = chunk.fetchOffset();
        for (RecordBatch batch : chunk.batches()) {
            if (batch.lastOffset() < from || batch.isControlBatch()) {
                continue;
            }
            if (batch.baseOffset() >= from && MillraceProducer.isCopyable(batch) && duplicates.isSettled(source.topic(),
                    source.partition(), batch.baseOffset(), batch.baseTimestamp(), route(source).target)) {
                send(source, batch);
            } else {
                Iterator<ConsumerRecord<byte[], byte[]>> records = chunk.iterator(Math.max(from, batch.baseOffset()),
                    batch.nextOffset(), BYTES, BYTES);
                while (records.hasNext()) {
                    send(records.next());
                }
            }
        }
    }

    /** Sends one live batch as it is, once the schemas it names are offline. */
    private void send(TopicPartition source, RecordBatch batch) throws InterruptedException {
        Routes.Route route = route(source);
        BatchSummary summary = BatchSummary.scan(batch, source.topic(), schemas, audit != null);
        MirrorCounters.TopicCounters topic = route.counters;
        topic.consumed(summary.records, summary.bytes);
        if (audit != null) {
            for (int i = 0; i < summary.records; i++) {
                audit.read(source.topic(), summary.timestamps[i], summary.sizes[i]);
            }
        }
        long first = batch.baseOffset();
        long last = batch.lastOffset();
        try {
            producer.sendRecordBatch(route.target, source.partition(), batch, (metadata, exception) -> {
                if (exception == null) {
                    long now = System.currentTimeMillis();
                    topic.produced(summary.records, summary.bytes, summary.latencySumMs(now), summary.latencyMaxMs(now));
                    if (audit != null) {
                        for (int i = 0; i < summary.records; i++) {
                            audit.acknowledged(source.topic(), summary.timestamps[i], summary.sizes[i]);
                        }
                    }
                } else if (failure.compareAndSet(null, sendFailed(source, first, last, exception))) {
                    abort.run();
                }
            });
        } catch (RuntimeException e) {
            throw sendFailed(source, first, last, e);
        }
    }

    private Routes.Route route(TopicPartition source) throws InterruptedException {
        return routes.of(source.topic(), source.partition());
    }

    private void send(ConsumerRecord<byte[], byte[]> record) throws InterruptedException {
        Routes.Route route = routes.of(record.topic(), record.partition());
        Integer partition = keepsPartitions ? record.partition() : null;
        ProducerRecord<byte[], byte[]> copy = new ProducerRecord<>(route.target, partition, record.timestamp(),
            record.key(), record.value(), record.headers());
        int bytes = size(record.key(), record.value());
        route.counters.consumed(bytes);
        if (audit != null) {
            audit.read(record.topic(), record.timestamp(), bytes);
        }
        if (handler != null) {
            sendHandled(record, route, copy);
            return;
        }
        if (duplicates.isDuplicate(record, keepsPartitions ? route.target : null)) {
            alreadyOffline(record, bytes, route.counters);
            return;
        }
        send(record, copy, route.counters);
    }

    /**
     * A record of a partition taken over that the offline partition already holds (the previous owner sent
     * it after its last commit): counted as a duplicate and not written again, so that a crash leaves no
     * second copy for the offline readers. It still counts as acknowledged, in the metrics and at the
     * audit's {@code offline} tier: the previous owner's counts of it were never published, as they waited
     * for a commit that did not come. The next commit covers it once everything sent before it is
     * acknowledged, as for any record.
     */
    private void alreadyOffline(ConsumerRecord<byte[], byte[]> record, int bytes, MirrorCounters.TopicCounters topic) {
        topic.duplicated(bytes);
        if (audit != null) {
            audit.acknowledged(record.topic(), record.timestamp(), bytes);
        }
    }

    /**
     * Sends what the handler makes of one live record; nothing for a record it drops, which the next
     * commit then covers at once. A topic of the handler's choosing is created as the live topic's copy is.
     */
    private void sendHandled(ConsumerRecord<byte[], byte[]> record, Routes.Route route, ProducerRecord<byte[], byte[]> copy)
        throws InterruptedException {
        List<ProducerRecord<byte[], byte[]>> outputs;
        try {
            outputs = handler.handle(record, copy);
        } catch (RuntimeException e) {
            throw new MirrorException("The message handler failed on " + record.topic() + "-" + record.partition()
                + " offset " + record.offset() + " from " + name + ": " + e, e);
        }
        if (outputs == null) {
            throw new MirrorException("The message handler returned null for " + record.topic() + "-"
                + record.partition() + " offset " + record.offset() + " from " + name + " (an empty list drops a record)");
        }
        for (ProducerRecord<byte[], byte[]> output : outputs) {
            routes.ensureOther(route, output.topic());
            send(record, output, route.counters);
        }
    }

    /**
     * Sends one record made of the live {@code record}, its schemas first. Counted as out when the offline
     * cluster acknowledged it, in the audit under the live record's topic and time: the audit follows each
     * live record into the offline cluster, whatever a handler named its copies.
     */
    private void send(ConsumerRecord<byte[], byte[]> record, ProducerRecord<byte[], byte[]> output,
                      MirrorCounters.TopicCounters topic) {
        if (schemas != null) {
            // before the record can be seen offline, its schemas must be there
            schemas.ensureCopied(record.topic(), output.key(), true);
            schemas.ensureCopied(record.topic(), output.value(), false);
        }
        int bytes = size(output.key(), output.value());
        try {
            producer.send(output, (metadata, exception) -> {
                if (exception == null) {
                    topic.produced(bytes, Math.max(0, System.currentTimeMillis() - record.timestamp()));
                    if (audit != null) {
                        audit.acknowledged(record.topic(), record.timestamp(), bytes);
                    }
                } else if (failure.compareAndSet(null, sendFailed(record, exception))) {
                    abort.run();   // the records queued after it fail too: none becomes visible out of order
                }
            });
        } catch (RuntimeException e) {
            throw sendFailed(record, e);
        }
    }

    private static int size(byte[] key, byte[] value) {
        return (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
    }

    private MirrorException sendFailed(TopicPartition source, long first, long last, Exception cause) {
        return new MirrorException("The offline cluster refused " + source + " offset " + first + " (a batch up to offset "
            + last + ") from " + name + ": " + cause, cause);
    }

    private MirrorException sendFailed(ConsumerRecord<?, ?> record, Exception cause) {
        return new MirrorException("The offline cluster refused " + record.topic() + "-" + record.partition() + " offset "
            + record.offset() + " from " + name + ": " + cause, cause);
    }

    /** The commit of the interval; while ZooKeeper is unreachable it waits for the next interval. */
    private void periodicCommit() throws InterruptedException {
        try {
            commit();
        } catch (IllegalStateException e) {
            LOG.warn("Mirror stream {}: {}; trying again at the next interval", name, e.getMessage());
        }
    }

    /** A clean stop: everything taken is sent; flush and commit it, or say why not (the next mirror re-copies). */
    private void commitOnStop() throws InterruptedException {
        try {
            commit();
        } catch (IllegalStateException e) {
            LOG.warn("Mirror stream {} stops without its last commit: {}. The next mirror copies again from the last "
                + "commit.", name, e.getMessage());
        }
    }

    /** Flush, check, commit: every record the offline cluster acknowledged, and nothing after a failure. */
    private void commit() throws InterruptedException {
        producer.flush();
        throwIfFailed();
        consumer.commit();
        counters.committed();
        if (audit != null) {
            audit.committed();
        }
    }

    private void throwIfFailed() {
        MirrorException failed = failure.get();
        if (failed != null) {
            throw failed;
        }
    }

    @Override
    public boolean beforeCommit(Set<TopicPartition> partitions) {
        taking.lock();   // released in afterRelease, after the consumer committed
        try {
            producer.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (RuntimeException e) {
            return false;   // the producer was stopped after a failed send
        }
        boolean ok = failure.get() == null;
        releaseCommitted = ok;
        if (ok) {
            // the last poll's records are sent and, after the flush, acknowledged: the commit may include
            // them, so the next owner does not copy them again (the mirror thread is held, see taking)
            consumer.markProcessed();
        } else {
            LOG.warn("Mirror stream {} gives up {} without committing: a send failed", name, partitions);
        }
        return ok;
    }

    @Override
    public void afterRelease(Set<TopicPartition> partitions) {
        if (!taking.isHeldByCurrentThread()) {
            taking.lock();   // released without a commit: still, the detector is the mirror thread's
        }
        try {
            duplicates.released(partitions);
            if (audit != null && releaseCommitted) {
                audit.committed();   // the release committed what was counted (the consumer retried it for a third of its session)
            }
            releaseCommitted = false;
        } finally {
            taking.unlock();
        }
    }

    /** Stops taking records, sends and commits what was taken, and leaves the group (commit included, unless a send failed). */
    void close() {
        running = false;
        try {
            thread.join(60_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.close();
        sourceTopics.close();
        sourceMetadata.close();
        sourceClient.close();
    }
}
