package io.millrace.broker.txn;

import io.millrace.broker.cluster.BrokerInfo;
import io.millrace.broker.group.OffsetsTopicAccess;
import io.millrace.broker.txn.TransactionStateLog.LoadedPartition;
import io.millrace.common.TopicPartition;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.utils.Time;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kafka's transaction coordinator (transaction protocol V1): each transactional id's producer id and
 * epoch, the partitions of its open transaction, and the two-phase end of it. Every change is
 * written to the id's partition of {@code __transaction_state} and replicated before it is acted on
 * or answered; an id changes one step at a time ({@link TransactionMetadata}).
 *
 * <p>Ending a transaction: EndTxn writes PrepareCommit or PrepareAbort and is answered; the markers
 * then go to every partition of the transaction ({@link TransactionMarkerWriter}), and
 * CompleteCommit or CompleteAbort is written once all have them. A coordinator taking a partition
 * over finishes the transactions it finds prepared. A new producer instance (InitProducerId for an
 * id whose transaction is open) and a transaction open past its timeout are aborted with the epoch
 * raised, which fences the old instance on every partition it wrote to.
 */
public final class TransactionCoordinator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionCoordinator.class);
    /** Past this epoch a producer gets a new producer id, as on Kafka, so that the epoch never wraps. */
    static final short MAX_EPOCH = Short.MAX_VALUE - 1;
    private static final long REFRESH_MS = 100;

    /** InitProducerId's answer. */
    public record InitResult(Errors error, long producerId, short producerEpoch) {

        static InitResult failed(Errors error) {
            return new InitResult(error, -1L, (short) -1);
        }
    }

    private final int brokerId;
    private final TransactionConfig config;
    private final Time time;
    private final Supplier<CompletableFuture<Long>> newProducerId;
    private final ScheduledExecutorService timer;
    private final NetworkClient client;
    private final TransactionStateLog stateLog;
    private final TransactionMarkerWriter markers;

    /**
     * @param newProducerId hands out a producer id unique in the cluster (the brokers' blocks of ids)
     */
    public TransactionCoordinator(OffsetsTopicAccess access, TransactionConfig config, Time time,
                                  Supplier<CompletableFuture<Long>> newProducerId) {
        this.brokerId = access.brokerId();
        this.config = config;
        this.time = time;
        this.newProducerId = newProducerId;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "millrace-transaction-coordinator-" + access.brokerId());
            thread.setDaemon(true);
            return thread;
        });
        this.client = new NetworkClient(NetworkClient.Options.defaults("broker-" + access.brokerId() + "-txn-markers"));
        this.stateLog = new TransactionStateLog(access, config, timer, this::resume);
        this.markers = new TransactionMarkerWriter(access.metadata(), client, timer);
    }

    public void startup() {
        timer.scheduleWithFixedDelay(this::refresh, 0, REFRESH_MS, TimeUnit.MILLISECONDS);
        long interval = config.abortTimedOutIntervalMs();
        timer.scheduleWithFixedDelay(this::abortTimedOut, interval, interval, TimeUnit.MILLISECONDS);
    }

    private void refresh() {
        try {
            stateLog.refresh();
        } catch (RuntimeException e) {
            LOG.warn("Could not refresh the partitions of {} led here", TransactionStateLog.NAME, e);
        }
    }

    /** The live broker coordinating {@code transactionalId}, if its partition has a leader (creates the topic). */
    public Optional<BrokerInfo> coordinatorOf(String transactionalId) {
        return stateLog.coordinatorOf(transactionalId);
    }

    // ---- InitProducerId ---------------------------------------------------------------------

    /**
     * A producer id and epoch for {@code transactionalId}: a new id at epoch 0 the first time, the
     * epoch raised after that (fencing any earlier instance). An open transaction is first aborted
     * under the raised epoch, and the producer told CONCURRENT_TRANSACTIONS until that is done.
     *
     * @param expectedProducerId the producer id and epoch the producer has (KIP-360), or -1 for none
     */
    public CompletableFuture<InitResult> initProducerId(String transactionalId, int timeoutMs, long expectedProducerId,
                                                        short expectedEpoch) {
        if (transactionalId.isEmpty()) {
            return done(InitResult.failed(Errors.INVALID_REQUEST));
        }
        if (timeoutMs <= 0 || timeoutMs > config.maxTimeoutMs()) {
            return done(InitResult.failed(Errors.INVALID_TRANSACTION_TIMEOUT));
        }
        LoadedPartition loaded;
        try {
            loaded = stateLog.partitionOf(transactionalId);
        } catch (ApiException e) {
            return done(InitResult.failed(e.error()));
        }
        TransactionMetadata existing = loaded.transactions().get(transactionalId);
        if (existing == null) {
            return newProducerId.get().thenCompose(id -> createId(loaded, transactionalId, timeoutMs, id))
                .exceptionally(failure -> InitResult.failed(errorOf(failure)));
        }
        synchronized (existing) {
            TransactionLogRecord current = existing.current();
            if (existing.hasPending() || current.state().isPreparing()
                || current.state() == TransactionState.PREPARE_EPOCH_FENCE) {
                return done(InitResult.failed(Errors.CONCURRENT_TRANSACTIONS));
            }
            if (expectedProducerId >= 0 && !existing.mayRaiseFrom(expectedProducerId, expectedEpoch)) {
                return done(InitResult.failed(Errors.PRODUCER_FENCED));
            }
            if (current.state() == TransactionState.ONGOING) {
                abortRaisingEpoch(loaded, existing, "a new instance of its producer started");
                return done(InitResult.failed(Errors.CONCURRENT_TRANSACTIONS));
            }
        }
        if (existing.producerEpoch() >= MAX_EPOCH) {
            return newProducerId.get().thenCompose(id -> raiseEpoch(loaded, existing, timeoutMs, id, (short) 0))
                .exceptionally(failure -> InitResult.failed(errorOf(failure)));
        }
        return raiseEpoch(loaded, existing, timeoutMs, existing.producerId(), (short) (existing.producerEpoch() + 1));
    }

    private CompletableFuture<InitResult> createId(LoadedPartition loaded, String transactionalId, int timeoutMs,
                                                   long producerId) {
        TransactionLogRecord first = new TransactionLogRecord(transactionalId, producerId, (short) 0, timeoutMs,
            TransactionState.EMPTY, Set.of(), time.milliseconds(), -1L);
        TransactionMetadata created = new TransactionMetadata(first);
        created.beginPending(first);
        if (loaded.transactions().putIfAbsent(transactionalId, created) != null) {
            return done(InitResult.failed(Errors.CONCURRENT_TRANSACTIONS));
        }
        return stateLog.append(loaded, first).handle((ok, failure) -> {
            synchronized (created) {
                if (failure != null) {
                    loaded.transactions().remove(transactionalId, created);
                    return InitResult.failed(errorOf(failure));
                }
                created.completePending();
                return new InitResult(Errors.NONE, producerId, (short) 0);
            }
        });
    }

    private CompletableFuture<InitResult> raiseEpoch(LoadedPartition loaded, TransactionMetadata metadata, int timeoutMs,
                                                     long producerId, short epoch) {
        TransactionLogRecord next;
        synchronized (metadata) {
            if (metadata.hasPending() || !metadata.state().isIdle()) {
                return done(InitResult.failed(Errors.CONCURRENT_TRANSACTIONS));
            }
            next = new TransactionLogRecord(metadata.transactionalId(), producerId, epoch, timeoutMs, TransactionState.EMPTY,
                Set.of(), time.milliseconds(), -1L);
            metadata.beginPending(next);
        }
        return persist(loaded, metadata, next).thenApply(error -> error == Errors.NONE
            ? new InitResult(Errors.NONE, producerId, epoch) : InitResult.failed(error));
    }

    // ---- AddPartitionsToTxn, AddOffsetsToTxn ------------------------------------------------

    /**
     * Adds {@code partitions} to the producer's transaction, opening one if none is, once durable.
     * Answered CONCURRENT_TRANSACTIONS while the previous transaction's markers are being written.
     */
    public CompletableFuture<Errors> addPartitions(String transactionalId, long producerId, short epoch,
                                                   Set<TopicPartition> partitions) {
        Located at;
        try {
            at = locate(transactionalId);
        } catch (ApiException e) {
            return done(e.error());
        }
        TransactionMetadata metadata = at.metadata();
        TransactionLogRecord next;
        synchronized (metadata) {
            Errors refusal = checkProducer(metadata, producerId, epoch);
            if (refusal != Errors.NONE) {
                return done(refusal);
            }
            TransactionLogRecord current = metadata.current();
            if (metadata.hasPending() || current.state().isPreparing()
                || current.state() == TransactionState.PREPARE_EPOCH_FENCE) {
                return done(Errors.CONCURRENT_TRANSACTIONS);
            }
            boolean ongoing = current.state() == TransactionState.ONGOING;
            if (ongoing && current.partitions().containsAll(partitions)) {
                return done(Errors.NONE);
            }
            Set<TopicPartition> all = new HashSet<>(partitions);
            if (ongoing) {
                all.addAll(current.partitions());
            }
            long now = time.milliseconds();
            next = metadata.next(TransactionState.ONGOING, epoch, all, ongoing ? current.startMs() : now, now);
            metadata.beginPending(next);
        }
        return persist(at.loaded(), metadata, next);
    }

    // ---- EndTxn -----------------------------------------------------------------------------

    /**
     * Commits or aborts the producer's open transaction: answered once the decision is durable; the
     * markers follow. A retry of an end already made is answered NONE, the other end INVALID_TXN_STATE.
     */
    public CompletableFuture<Errors> endTransaction(String transactionalId, long producerId, short epoch, boolean commit) {
        Located at;
        try {
            at = locate(transactionalId);
        } catch (ApiException e) {
            return done(e.error());
        }
        TransactionMetadata metadata = at.metadata();
        TransactionLogRecord prepared;
        synchronized (metadata) {
            Errors refusal = checkProducer(metadata, producerId, epoch);
            if (refusal != Errors.NONE) {
                return done(refusal);
            }
            if (metadata.hasPending()) {
                return done(Errors.CONCURRENT_TRANSACTIONS);
            }
            TransactionLogRecord current = metadata.current();
            Errors answer = switch (current.state()) {
                case ONGOING -> null;
                case PREPARE_COMMIT -> commit ? Errors.CONCURRENT_TRANSACTIONS : Errors.INVALID_TXN_STATE;
                case PREPARE_ABORT -> commit ? Errors.INVALID_TXN_STATE : Errors.CONCURRENT_TRANSACTIONS;
                case COMPLETE_COMMIT -> commit ? Errors.NONE : Errors.INVALID_TXN_STATE;
                case COMPLETE_ABORT -> commit ? Errors.INVALID_TXN_STATE : Errors.NONE;
                default -> Errors.INVALID_TXN_STATE;
            };
            if (answer != null) {
                return done(answer);
            }
            prepared = metadata.next(commit ? TransactionState.PREPARE_COMMIT : TransactionState.PREPARE_ABORT, epoch,
                current.partitions(), current.startMs(), time.milliseconds());
            metadata.beginPending(prepared);
        }
        return persist(at.loaded(), metadata, prepared).thenApply(error -> {
            if (error == Errors.NONE) {
                writeMarkers(at.loaded(), metadata, prepared);
            }
            return error;
        });
    }

    /**
     * Aborts the open transaction of {@code metadata} with the producer's epoch raised, fencing the
     * instance that opened it. Call holding its monitor, with no change pending.
     */
    private void abortRaisingEpoch(LoadedPartition loaded, TransactionMetadata metadata, String why) {
        TransactionLogRecord current = metadata.current();
        short raised = (short) (current.producerEpoch() + 1);
        TransactionLogRecord prepared = metadata.next(TransactionState.PREPARE_ABORT, raised, current.partitions(),
            current.startMs(), time.milliseconds());
        metadata.beginPending(prepared);
        LOG.info("Aborting the transaction of {} (producer {}, epoch {} raised to {}): {}", metadata.transactionalId(),
            current.producerId(), current.producerEpoch(), raised, why);
        persist(loaded, metadata, prepared).thenAccept(error -> {
            if (error == Errors.NONE) {
                writeMarkers(loaded, metadata, prepared);
            }
        });
    }

    /** Writes the prepared transaction's markers, then its completion; stops if the partition moves. */
    private void writeMarkers(LoadedPartition loaded, TransactionMetadata metadata, TransactionLogRecord prepared) {
        boolean commit = prepared.state() == TransactionState.PREPARE_COMMIT;
        markers.write(prepared.producerId(), prepared.producerEpoch(), loaded.coordinatorEpoch(), commit,
                prepared.partitions(), () -> stateLog.isCurrent(loaded))
            .whenComplete((ok, failure) -> {
                if (failure != null) {
                    LOG.info("Stopped writing the markers of {}: {}", metadata.transactionalId(), failure.getMessage());
                    return;
                }
                complete(loaded, metadata, prepared);
            });
    }

    private void complete(LoadedPartition loaded, TransactionMetadata metadata, TransactionLogRecord prepared) {
        TransactionLogRecord completed;
        synchronized (metadata) {
            if (metadata.current() != prepared || metadata.hasPending()) {
                return;
            }
            TransactionState state = prepared.state() == TransactionState.PREPARE_COMMIT
                ? TransactionState.COMPLETE_COMMIT : TransactionState.COMPLETE_ABORT;
            completed = metadata.next(state, prepared.producerEpoch(), Set.of(), -1L, time.milliseconds());
            metadata.beginPending(completed);
        }
        persist(loaded, metadata, completed).thenAccept(error -> {
            if (error != Errors.NONE && stateLog.isCurrent(loaded) && !timer.isShutdown()) {
                timer.schedule(() -> complete(loaded, metadata, prepared), TransactionMarkerWriter.RETRY_BACKOFF_MS,
                    TimeUnit.MILLISECONDS);
            }
        });
    }

    /** A partition loaded here: the transactions it holds prepared get their markers and completion. */
    private void resume(LoadedPartition loaded) {
        for (TransactionMetadata metadata : loaded.transactions().values()) {
            TransactionLogRecord current;
            synchronized (metadata) {
                current = metadata.current();
            }
            if (current.state().isPreparing()) {
                LOG.info("Finishing the {} of {} left by the previous coordinator", current.state().displayName(),
                    metadata.transactionalId());
                writeMarkers(loaded, metadata, current);
            }
        }
    }

    /** Timer thread: aborts every transaction open longer than its timeout, fencing its producer. */
    private void abortTimedOut() {
        long now = time.milliseconds();
        try {
            for (LoadedPartition loaded : stateLog.loaded()) {
                for (TransactionMetadata metadata : loaded.transactions().values()) {
                    synchronized (metadata) {
                        TransactionLogRecord current = metadata.current();
                        if (!metadata.hasPending() && current.state() == TransactionState.ONGOING
                            && now - current.startMs() > current.timeoutMs() && stateLog.isCurrent(loaded)) {
                            abortRaisingEpoch(loaded, metadata, "open for longer than its transaction.timeout.ms "
                                + current.timeoutMs());
                        }
                    }
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("Could not look for timed out transactions", e);
        }
    }

    // ---- helpers ----------------------------------------------------------------------------

    /** Writes the pending change {@code next} of {@code metadata}; NONE once durable, else why not (then abandoned). */
    private CompletableFuture<Errors> persist(LoadedPartition loaded, TransactionMetadata metadata,
                                              TransactionLogRecord next) {
        return stateLog.append(loaded, next).handle((ok, failure) -> {
            synchronized (metadata) {
                if (failure != null) {
                    metadata.abandonPending();
                    LOG.debug("Could not write the state {} of {}: {}", next.state(), metadata.transactionalId(),
                        failure.toString());
                    return errorOf(failure);
                }
                metadata.completePending();
                return Errors.NONE;
            }
        });
    }

    /** A known transactional id, where its coordinator holds it. */
    private record Located(LoadedPartition loaded, TransactionMetadata metadata) {
    }

    /**
     * The id's partition and metadata.
     *
     * @throws ApiException NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, or INVALID_PRODUCER_ID_MAPPING
     *                      for an id without a producer id yet
     */
    private Located locate(String transactionalId) {
        LoadedPartition loaded = stateLog.partitionOf(transactionalId);
        TransactionMetadata metadata = loaded.transactions().get(transactionalId);
        if (metadata == null) {
            throw new ApiException(Errors.INVALID_PRODUCER_ID_MAPPING, "No producer id for transactional id "
                + transactionalId + ": InitProducerId first");
        }
        return new Located(loaded, metadata);
    }

    private static Errors checkProducer(TransactionMetadata metadata, long producerId, short epoch) {
        if (producerId != metadata.producerId()) {
            return Errors.INVALID_PRODUCER_ID_MAPPING;
        }
        return epoch == metadata.producerEpoch() ? Errors.NONE : Errors.PRODUCER_FENCED;
    }

    private static Errors errorOf(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        return cause instanceof ApiException api ? api.error() : Errors.COORDINATOR_NOT_AVAILABLE;
    }

    /**
     * {@code error} as a producer speaking an API version older than PRODUCER_FENCED (KIP-588) reads
     * it: INVALID_PRODUCER_EPOCH, as Kafka answers such producers.
     */
    public static Errors forVersion(Errors error, boolean knowsProducerFenced) {
        return error == Errors.PRODUCER_FENCED && !knowsProducerFenced ? Errors.INVALID_PRODUCER_EPOCH : error;
    }

    private static <T> CompletableFuture<T> done(T value) {
        return CompletableFuture.completedFuture(value);
    }

    /** The state log, for the admin answers ({@link TransactionListings}). */
    TransactionStateLog stateLog() {
        return stateLog;
    }

    long nowMs() {
        return time.milliseconds();
    }

    @Override
    public void close() {
        timer.shutdownNow();
        client.close();
        LOG.debug("Transaction coordinator {} closed", brokerId);
    }
}
