package io.millrace.broker.txn;

import io.millrace.broker.cluster.BrokerInfo;
import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.PartitionState;
import io.millrace.broker.group.OffsetsTopic;
import io.millrace.broker.group.OffsetsTopicAccess;
import io.millrace.broker.log.FileSlice;
import io.millrace.broker.log.Log;
import io.millrace.broker.replica.LeaderSide;
import io.millrace.broker.replica.Partition;
import io.millrace.common.TopicPartition;
import io.millrace.common.errors.TopicExistsException;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchIterator;
import io.millrace.common.record.RecordIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The internal topic {@code __transaction_state}, Kafka's name and partitioning: a transactional id's
 * state goes to partition {@code abs(id.hashCode()) % partitions}, whose leader coordinates the id.
 * This broker's side of it: the partitions it leads and has loaded (each with its transactional
 * ids, read from the log when the leadership came here), and durable appends of state changes.
 *
 * <p>A partition's coordinator epoch is its leader epoch when loaded. A new epoch, even on the
 * same broker, loads the partition again, so a marker written under an older epoch is fenced.
 */
public final class TransactionStateLog {

    public static final String NAME = "__transaction_state";

    private static final Logger LOG = LoggerFactory.getLogger(TransactionStateLog.class);
    private static final int READ_BYTES = 1 << 20;

    /** A partition led and loaded here, in one leader epoch. */
    record LoadedPartition(int partition, int coordinatorEpoch, Map<String, TransactionMetadata> transactions) {
    }

    private final OffsetsTopicAccess access;
    private final TransactionConfig config;
    private final Executor loader;
    private final Consumer<LoadedPartition> onLoaded;
    private final Map<Integer, LoadedPartition> led = new ConcurrentHashMap<>();
    private final Set<Integer> loading = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean creating = new AtomicBoolean();

    TransactionStateLog(OffsetsTopicAccess access, TransactionConfig config, Executor loader,
                        Consumer<LoadedPartition> onLoaded) {
        this.access = access;
        this.config = config;
        this.loader = loader;
        this.onLoaded = onLoaded;
    }

    /** Kafka's choice of partition for a transactional id, so that both pick the same one. */
    static int partitionFor(String transactionalId, int partitions) {
        return OffsetsTopic.partitionFor(transactionalId, partitions);
    }

    /** The live broker leading the id's partition; creates the topic when missing (then empty). */
    Optional<BrokerInfo> coordinatorOf(String transactionalId) {
        ClusterSnapshot snapshot = access.metadata().snapshot();
        int partitions = snapshot.partitionCount(NAME);
        if (partitions <= 0) {
            ensureTopic(snapshot);
            return Optional.empty();
        }
        return snapshot.leaderBroker(NAME, partitionFor(transactionalId, partitions));
    }

    /**
     * The loaded partition of the id.
     *
     * @throws ApiException COORDINATOR_LOAD_IN_PROGRESS while it loads here, NOT_COORDINATOR when
     *                      this broker does not lead it
     */
    LoadedPartition partitionOf(String transactionalId) {
        ClusterSnapshot snapshot = access.metadata().snapshot();
        int partitions = snapshot.partitionCount(NAME);
        int partition = partitions <= 0 ? -1 : partitionFor(transactionalId, partitions);
        LoadedPartition loaded = partition < 0 ? null : led.get(partition);
        if (loaded != null && stillLeading(snapshot, partition, loaded.coordinatorEpoch())) {
            return loaded;
        }
        if (partition >= 0 && (loading.contains(partition) || leads(snapshot, partition))) {
            throw new ApiException(Errors.COORDINATOR_LOAD_IN_PROGRESS, "Transaction coordinator " + access.brokerId()
                + " is loading " + NAME + "-" + partition);
        }
        throw new ApiException(Errors.NOT_COORDINATOR, "Broker " + access.brokerId() + " does not coordinate transactional id "
            + transactionalId);
    }

    /** Whether {@code loaded} is still this broker's, in the same epoch: its work may go on. */
    boolean isCurrent(LoadedPartition loaded) {
        return led.get(loaded.partition()) == loaded
            && stillLeading(access.metadata().snapshot(), loaded.partition(), loaded.coordinatorEpoch());
    }

    /** Every partition loaded here now. */
    Iterable<LoadedPartition> loaded() {
        return led.values();
    }

    /**
     * Appends {@code record} to its partition as the leader; completes once every in-sync replica has
     * it, or fails NOT_COORDINATOR (leadership moved), or COORDINATOR_NOT_AVAILABLE (too few in-sync
     * replicas, a timeout), both of which producers retry after looking up their coordinator.
     */
    CompletableFuture<Void> append(LoadedPartition loaded, TransactionLogRecord record) {
        TopicPartition tp = new TopicPartition(NAME, loaded.partition());
        ClusterSnapshot snapshot = access.metadata().snapshot();
        LeaderSide.Append appended;
        try {
            if (!isCurrent(loaded)) {
                throw new ApiException(Errors.NOT_COORDINATOR, "No longer leading " + tp);
            }
            Log log = access.logs().getLog(NAME, loaded.partition()).orElseThrow(() ->
                new ApiException(Errors.NOT_COORDINATOR, "The log of " + tp + " is closed"));
            Optional<Partition> replica = access.replicas().partition(snapshot, tp);
            ByteBuffer batch = record.toBatch();
            appended = replica.map(r -> access.replicas().leaderSide().append(r, log, batch, (short) -1,
                    config.stateWriteTimeoutMs()))
                .orElseGet(() -> new LeaderSide.Append(log.append(batch), null));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(asCoordinatorError(e));
        }
        access.onAppend().accept(tp);
        return appended.replicated() == null ? CompletableFuture.completedFuture(null)
            : appended.replicated().handle((ok, failure) -> {
                if (failure != null) {
                    throw new CompletionException(asCoordinatorError(failure));
                }
                return null;
            });
    }

    /** What a producer is told when its state change could not be made durable: errors it retries. */
    private static ApiException asCoordinatorError(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof ApiException api && (api.error() == Errors.NOT_COORDINATOR
            || api.error() == Errors.COORDINATOR_NOT_AVAILABLE || api.error() == Errors.COORDINATOR_LOAD_IN_PROGRESS)) {
            return api;
        }
        if (cause instanceof ApiException api && api.error() == Errors.NOT_LEADER_OR_FOLLOWER) {
            return new ApiException(Errors.NOT_COORDINATOR, api.getMessage());
        }
        return new ApiException(Errors.COORDINATOR_NOT_AVAILABLE, "The transaction state could not be written: " + cause);
    }

    /** Timer thread: forgets partitions no longer led here in their epoch and loads those newly led. */
    void refresh() {
        ClusterSnapshot snapshot = access.metadata().snapshot();
        led.values().removeIf(loaded -> {
            boolean lost = !stillLeading(snapshot, loaded.partition(), loaded.coordinatorEpoch());
            if (lost) {
                LOG.info("No longer coordinating {}-{} in epoch {}", NAME, loaded.partition(), loaded.coordinatorEpoch());
            }
            return lost;
        });
        int partitions = snapshot.partitionCount(NAME);
        for (int p = 0; p < partitions; p++) {
            Optional<PartitionState> state = snapshot.partitionState(NAME, p);
            if (state.isEmpty() || led.containsKey(p) || !leads(snapshot, p)) {
                continue;
            }
            int partition = p;
            int epoch = state.get().leaderEpoch();
            if (loading.add(partition)) {
                loader.execute(() -> load(partition, epoch));
            }
        }
    }

    private void load(int partition, int epoch) {
        try {
            if (!stillLeading(access.metadata().snapshot(), partition, epoch)) {
                return;
            }
            Log log = access.logs().getLog(NAME, partition).orElseThrow();
            Map<String, TransactionMetadata> transactions = new ConcurrentHashMap<>();
            int records = replay(log, transactions);
            LoadedPartition loaded = new LoadedPartition(partition, epoch, transactions);
            if (stillLeading(access.metadata().snapshot(), partition, epoch)) {
                led.put(partition, loaded);
                LOG.info("Loaded {}-{} in coordinator epoch {}: {} records, {} transactional ids", NAME, partition, epoch,
                    records, transactions.size());
                onLoaded.accept(loaded);
            }
        } catch (RuntimeException e) {
            LOG.warn("Could not load {}-{}; retrying", NAME, partition, e);
        } finally {
            loading.remove(partition);
        }
    }

    /** Reads every record of the partition, the latest of each id winning; returns how many were read. */
    private static int replay(Log log, Map<String, TransactionMetadata> into) {
        long position = log.logStartOffset();
        long end = log.logEndOffset();
        int found = 0;
        while (position < end) {
            long next = position;
            for (RecordBatch batch : RecordBatchIterator.batches(read(log, position))) {
                if (!batch.isControlBatch()) {
                    found += replayBatch(batch, into);
                }
                next = batch.nextOffset();
            }
            if (next <= position) {
                break; // the log ends in a torn batch
            }
            position = next;
        }
        return found;
    }

    private static int replayBatch(RecordBatch batch, Map<String, TransactionMetadata> into) {
        int found = 0;
        try (RecordIterator records = batch.records()) {
            while (records.hasNext()) {
                Record record = records.next();
                String id = record.hasKey() ? TransactionLogRecord.readKey(record) : null;
                if (id == null) {
                    continue;
                }
                found++;
                if (record.hasValue()) {
                    into.put(id, new TransactionMetadata(TransactionLogRecord.readValue(id, record.value())));
                } else {
                    into.remove(id);
                }
            }
        }
        return found;
    }

    private static ByteBuffer read(Log log, long position) {
        FileSlice slice = log.read(position, READ_BYTES, true);
        try {
            return slice.readFully();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read " + log.topicPartition() + " at " + position, e);
        }
    }

    private boolean leads(ClusterSnapshot snapshot, int partition) {
        if (snapshot.leader(NAME, partition) != access.brokerId()) {
            return false;
        }
        TopicPartition tp = new TopicPartition(NAME, partition);
        return access.logs().getLog(NAME, partition).isPresent()
            && access.replicas().partition(tp).map(Partition::isLeader).orElse(true);
    }

    private boolean stillLeading(ClusterSnapshot snapshot, int partition, int epoch) {
        return leads(snapshot, partition)
            && snapshot.partitionState(NAME, partition).map(PartitionState::leaderEpoch).orElse(-1) == epoch;
    }

    private void ensureTopic(ClusterSnapshot snapshot) {
        int replicationFactor = OffsetsTopic.replicationFactorToCreate(config.stateLogReplicationFactor(),
            snapshot.liveBrokers().size(), snapshot.knownBrokers().size());
        if (replicationFactor == 0 || !creating.compareAndSet(false, true)) {
            return;
        }
        Map<String, String> topicConfig = Map.of("cleanup.policy", "compact",
            "segment.bytes", Integer.toString(config.stateLogSegmentBytes()),
            "min.insync.replicas", Integer.toString(Math.min(config.stateLogMinIsr(), replicationFactor)));
        access.creator().create(NAME, config.stateLogNumPartitions(), replicationFactor, topicConfig)
            .whenComplete((ok, failure) -> {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
                if (failure != null && !(cause instanceof TopicExistsException)) {
                    LOG.warn("Could not create {}: {}", NAME, failure.toString());
                    creating.set(false); // the next FindCoordinator tries again
                } else if (failure == null) {
                    LOG.info("Created {} with {} partitions, replication factor {}", NAME, config.stateLogNumPartitions(),
                        replicationFactor);
                }
            });
    }
}
