package io.millrace.producer.internals;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.Cluster;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.errors.MillraceException;
import io.millrace.common.errors.NetworkException;
import io.millrace.common.errors.TimeoutException;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ProduceRequest;
import io.millrace.common.protocol.message.ProduceResponse;
import io.millrace.common.protocol.message.ProduceResponse.PartitionResponse;
import io.millrace.common.utils.Time;
import io.millrace.producer.ProducerListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producer's sending side: takes ready batches from the {@link RecordAccumulator}, puts every
 * batch bound for one broker into one Produce request, and completes, retries or fails the batches
 * when the answer comes.
 *
 * <p>It runs on the network client's one I/O thread, as Kafka's sender does its own I/O: an answer
 * is handled, and the partition's next batch sent, without waking another thread, which on a
 * small machine is what a round trip with one request in flight mostly costs. Everything here
 * runs on that thread only, so batches need no locks. A pass runs when woken (a new or full batch,
 * an answer, a flush, a close) or when the next batch's linger or backoff runs out. Callbacks run
 * on that thread too and, as with Kafka, must not block.
 */
public final class Sender {

    private static final Logger log = LoggerFactory.getLogger(Sender.class);
    private static final long MAX_SLEEP_MS = 100;
    private static final Set<Errors> STALE_METADATA_ERRORS = Set.of(Errors.NOT_LEADER_OR_FOLLOWER,
        Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.LEADER_NOT_AVAILABLE, Errors.KAFKA_STORAGE_ERROR);

    private final NetworkClient client;
    private final Metadata metadata;
    private final RecordAccumulator accumulator;
    private final SenderSettings settings;
    private final ProducerMetrics metrics;
    private final Time time;
    /** Told of every completed batch; may grow while the producer runs. */
    private final List<ProducerListener> listeners;
    private final ConcurrentLinkedQueue<Runnable> answers = new ConcurrentLinkedQueue<>();
    private final Map<Node, Integer> inFlight = new HashMap<>();
    // written on the I/O thread only; read by sending threads too, to skip wake-ups that cannot send
    private final Set<TopicPartition> muted = ConcurrentHashMap.newKeySet();
    private final List<Acknowledged> acknowledged = new ArrayList<>();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    private final ScheduledExecutorService io;
    private final CompletableFuture<Void> finished = new CompletableFuture<>();
    /** The producer id and sequences when the producer is idempotent, else null. */
    private final IdempotenceManager idempotence;
    private final ProducerIdRequester producerIds;
    private ScheduledFuture<?> timer;
    private volatile boolean running = true;
    private volatile boolean forceClose;

    public Sender(NetworkClient client, Metadata metadata, RecordAccumulator accumulator, SenderSettings settings,
                  ProducerMetrics metrics, Time time, List<ProducerListener> listeners) {
        this.client = client;
        this.listeners = listeners;
        this.metadata = metadata;
        this.accumulator = accumulator;
        this.settings = settings;
        this.metrics = metrics;
        this.time = time;
        this.io = client.ioExecutor();
        this.idempotence = settings.idempotence() ? new IdempotenceManager() : null;
        this.producerIds = idempotence == null ? null
            : new ProducerIdRequester(client, metadata, idempotence, this::post, settings.retryBackoffMs(), time);
        accumulator.onBatchReady(this::batchReady, this::wakeup);
        accumulator.useIdempotence(idempotence);
    }

    /** Starts sending. */
    public void start() {
        wakeup();
    }

    /** Completes once the sender has stopped: everything sent, or failed by a forced close. */
    public CompletableFuture<Void> finished() {
        return finished;
    }

    /** One pass on the I/O thread, then a timer for the next linger or backoff, or the end. */
    private void pass() {
        wakeupPending.set(false);
        if (finished.isDone()) {
            return;
        }
        long delayMs = runOnceSafely();
        if (!running && (forceClose || (!accumulator.hasQueued() && totalInFlight() == 0))) {
            stop();
        } else if (delayMs < 0) {
            wakeup();
        } else {
            schedule(delayMs);
        }
    }

    private void stop() {
        if (forceClose) {
            failEverything(new MillraceException("The producer was closed before the record was acknowledged"));
        }
        cancelTimer();
        log.debug("Producer sender stopped");
        finished.complete(null);
    }

    private void schedule(long delayMs) {
        cancelTimer();
        timer = io.schedule(this::wakeup, Math.max(1, delayMs), TimeUnit.MILLISECONDS);
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** Runs one pass; returns how long to wait before the next one, or -1 to go again at once. */
    private long runOnceSafely() {
        try {
            return runOnce();
        } catch (RuntimeException e) {
            log.error("Unexpected error in the producer's sender", e);
            return settingsBackoff();
        }
    }

    private long settingsBackoff() {
        return Math.max(1, settings.retryBackoffMs());
    }

    long runOnce() {
        try {
            return sendReady();
        } finally {
            completeAcknowledged();
        }
    }

    /**
     * Handles the answers, then sends what is ready. Acknowledged batches are only marked here; their
     * callbacks run and their memory returns after the next request is on the wire, so that with one
     * request in flight the next round trip overlaps the callbacks and the sending threads it wakes.
     */
    private long sendReady() {
        handleAnswers();
        if (forceClose) {
            // a callback of the answers just handled closed the producer: nothing queued may go out now
            return -1;
        }
        long nowMs = time.milliseconds();
        failExpired(nowMs);
        var cluster = metadata.cluster();
        if (idempotence != null && !prepareIdempotence(cluster, nowMs)) {
            return settingsBackoff();
        }
        ReadyCheck ready = accumulator.ready(cluster, nowMs, muted);
        if (!ready.unknownLeaderTopics().isEmpty()) {
            metadata.addTopics(ready.unknownLeaderTopics());
            metadata.requestUpdate();
        }
        Set<Node> sendable = new HashSet<>();
        for (Node node : ready.readyNodes()) {
            if (inFlight.getOrDefault(node, 0) < settings.maxInFlight()) {
                sendable.add(node);
            }
        }
        Map<Node, List<ProducerBatch>> drained = sendable.isEmpty() ? Map.of()
            : accumulator.drain(cluster, sendable, settings.maxRequestSize(), nowMs, muted);
        drained.forEach((node, batches) -> send(node, batches, nowMs));
        if (!answers.isEmpty() || !drained.isEmpty()) {
            return -1;
        }
        return Math.min(ready.nextReadyCheckDelayMs(), MAX_SLEEP_MS);
    }

    /**
     * Settles the idempotent producer's numbering before anything is drained: sequences left unresolved
     * by expired batches, a new epoch asked for by an answer, a producer id to ask for. False once the
     * producer id was fenced or refused: everything fails with that error.
     */
    private boolean prepareIdempotence(Cluster cluster, long nowMs) {
        RuntimeException fatal = idempotence.fatalError();
        if (fatal != null) {
            failEverything(fatal);
            return false;
        }
        idempotence.maybeResolveSequences();
        idempotence.bumpEpochIfNeeded();
        producerIds.maybeRequest(cluster, nowMs);
        return true;
    }

    /** Runs {@code answer} in the next pass, on the I/O thread. */
    private void post(Runnable answer) {
        answers.add(answer);
        wakeup();
    }

    private void send(Node node, List<ProducerBatch> batches, long nowMs) {
        int records = 0;
        for (ProducerBatch batch : batches) {
            records += batch.recordCount();
            if (batch.attempts() == 0) {
                metrics.recordBatchSent(nowMs - batch.createdMs(), batch.sizeInBytes());
            }
            batch.onSend();
            if (settings.guaranteeOrder()) {
                muted.add(batch.topicPartition());
            }
        }
        metrics.recordRequestSent(records);
        inFlight.merge(node, 1, Integer::sum);
        long startNs = time.nanoseconds();
        CompletableFuture<?> answer;
        try {
            ProduceRequest request = requestFor(batches);
            answer = settings.acks() == 0 ? client.sendNoResponse(node, request) : client.send(node, request);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        answer.whenComplete((response, error) -> post(() -> onAnswer(node, batches, (ProduceResponse) response, error,
            startNs)));
    }

    private ProduceRequest requestFor(List<ProducerBatch> batches) {
        Map<String, List<ProduceRequest.PartitionData>> byTopic = new LinkedHashMap<>();
        for (ProducerBatch batch : batches) {
            byTopic.computeIfAbsent(batch.topicPartition().topic(), t -> new ArrayList<>())
                .add(new ProduceRequest.PartitionData(batch.topicPartition().partition(), batch.records()));
        }
        List<ProduceRequest.TopicData> topics = new ArrayList<>(byTopic.size());
        byTopic.forEach((topic, partitions) -> topics.add(new ProduceRequest.TopicData(topic, partitions)));
        return new ProduceRequest(null, settings.acks(), settings.requestTimeoutMs(), topics);
    }

    private void handleAnswers() {
        Runnable answer;
        while ((answer = answers.poll()) != null) {
            answer.run();
        }
    }

    private void onAnswer(Node node, List<ProducerBatch> batches, ProduceResponse response, Throwable error, long startNs) {
        inFlight.merge(node, -1, Integer::sum);
        for (ProducerBatch batch : batches) {
            muted.remove(batch.topicPartition());
        }
        metrics.recordRequestLatency(time.nanoseconds() - startNs);
        long nowMs = time.milliseconds();
        if (error != null) {
            onRequestFailure(node, batches, unwrap(error), nowMs);
        } else if (settings.acks() == 0) {
            batches.forEach(batch -> finish(batch, -1L, -1L, null));
        } else {
            onResponse(batches, response, nowMs);
        }
    }

    private void onRequestFailure(Node node, List<ProducerBatch> batches, Throwable error, long nowMs) {
        boolean retriable = error instanceof NetworkException || error instanceof TimeoutException;
        if (retriable) {
            log.debug("Produce request to {} failed, {} batch(es) may be retried: {}", node, batches.size(), error.toString());
            metadata.requestUpdate();
        } else {
            log.warn("Produce request to {} failed: {}", node, error.toString());
        }
        RuntimeException cause = error instanceof RuntimeException ? (RuntimeException) error
            : new MillraceException("Produce request to " + node + " failed", error);
        for (ProducerBatch batch : batches) {
            if (retriable && mayRetry(batch, nowMs)) {
                retry(batch, cause, nowMs);
            } else {
                fail(batch, cause, Errors.UNKNOWN_SERVER_ERROR.code(), false);
            }
        }
    }

    private void onResponse(List<ProducerBatch> batches, ProduceResponse response, long nowMs) {
        Map<TopicPartition, PartitionResponse> answers = new HashMap<>();
        for (ProduceResponse.TopicResponse topic : response.responses()) {
            for (PartitionResponse partition : topic.partitionResponses()) {
                answers.put(new TopicPartition(topic.name(), partition.index()), partition);
            }
        }
        for (ProducerBatch batch : batches) {
            PartitionResponse answer = answers.get(batch.topicPartition());
            if (answer == null) {
                fail(batch, new MillraceException("The broker's answer lacks " + batch.topicPartition()),
                    Errors.UNKNOWN_SERVER_ERROR.code(), false);
            } else if (answer.error() == Errors.NONE || isDuplicateOfAcknowledged(answer)) {
                if (idempotence != null) {
                    idempotence.onAcknowledged(batch, answer.baseOffset());
                }
                acknowledged.add(new Acknowledged(batch, answer.baseOffset(), answer.logAppendTimeMs()));
            } else {
                onPartitionError(batch, answer, nowMs);
            }
        }
    }

    /**
     * A batch older than the five the broker remembers of this producer, sent again: a Kafka broker
     * answers that it has it without its offset, as the answer to its first send was lost. Success,
     * offset unknown, as with Kafka's producer.
     */
    private boolean isDuplicateOfAcknowledged(PartitionResponse answer) {
        return idempotence != null && answer.errorCode() == IdempotenceManager.DUPLICATE_SEQUENCE_NUMBER;
    }

    private void onPartitionError(ProducerBatch batch, PartitionResponse answer, long nowMs) {
        Errors error = answer.error();
        if (STALE_METADATA_ERRORS.contains(error)) {
            metadata.requestUpdate();
        }
        RuntimeException exception = ProduceErrors.exception(batch, answer);
        boolean retry = mayRetry(batch, nowMs) && (idempotence == null ? error.isRetriable()
            : idempotence.canRetry(batch, answer.errorCode(), answer.logStartOffset(), error.isRetriable()));
        if (retry) {
            retry(batch, exception, nowMs);
            return;
        }
        if (idempotence != null && answer.errorCode() == IdempotenceManager.PRODUCER_FENCED) {
            idempotence.fail(exception);
        }
        // A refusal on an attempt that was not the last says the broker has none of the batch's sends, so the
        // batches after it may be numbered again; after the last, an earlier send may have been appended.
        fail(batch, exception, answer.errorCode(), batch.attempts() <= settings.retries());
    }

    /** Whether the batch's attempts and delivery timeout allow sending it again. */
    private boolean mayRetry(ProducerBatch batch, long nowMs) {
        boolean inTime = nowMs - batch.createdMs() + settings.retryBackoffMs() < settings.deliveryTimeoutMs();
        return batch.attempts() <= settings.retries() && inTime && !forceClose;
    }

    /** Queues the batch again, before the partition's later batches; an idempotent producer's keeps its sequence. */
    private void retry(ProducerBatch batch, RuntimeException error, long nowMs) {
        log.debug("Retrying {} after: {}", batch, error.toString());
        accumulator.reenqueue(batch, nowMs);
    }

    private void fail(ProducerBatch batch, RuntimeException error, short errorCode, boolean mayBeRenumbered) {
        if (idempotence != null) {
            idempotence.onFailed(batch, errorCode, mayBeRenumbered);
        }
        finish(batch, -1L, -1L, error);
    }

    /**
     * Counts the batch and returns its memory before completing it, so that a thread woken by the
     * completion (flush, a future's get) already sees both.
     */
    private void finish(ProducerBatch batch, long baseOffset, long logAppendTime, RuntimeException error) {
        if (batch.isCompleted()) {
            return;
        }
        metrics.recordCompletion(batch.recordCount(), error != null);
        // the network layer sends a batch's bytes as they are: a batch that failed after it was sent
        // (a timeout, a broken connection) may still be in a request being written
        accumulator.deallocate(batch, error != null && batch.attempts() > 0);
        batch.complete(baseOffset, logAppendTime, error, listeners);
        accumulator.completed(batch);
    }

    private void completeAcknowledged() {
        for (int i = 0; i < acknowledged.size(); i++) {
            Acknowledged ack = acknowledged.get(i);
            finish(ack.batch(), ack.baseOffset(), ack.logAppendTime(), null);
        }
        acknowledged.clear();
    }

    /** A batch the broker accepted, waiting for its callbacks to run. */
    private record Acknowledged(ProducerBatch batch, long baseOffset, long logAppendTime) {
    }

    private void failExpired(long nowMs) {
        for (ProducerBatch batch : accumulator.expiredBatches(nowMs, settings.deliveryTimeoutMs())) {
            if (idempotence != null) {
                // sent before and maybe appended: the sequence after it stays in doubt until its neighbours complete
                idempotence.onFailed(batch, Errors.REQUEST_TIMED_OUT.code(), false);
                if (batch.inRetry()) {
                    idempotence.markSequenceUnresolved(batch);
                }
            }
            finish(batch, -1L, -1L, new TimeoutException("Expiring " + batch.recordCount() + " record(s) for "
                + batch.topicPartition() + ": " + (nowMs - batch.createdMs()) + " ms has passed since the batch was "
                + "created (delivery.timeout.ms is " + settings.deliveryTimeoutMs() + ")"));
        }
    }

    private void failEverything(RuntimeException error) {
        for (ProducerBatch batch : accumulator.removeAllQueued()) {
            finish(batch, -1L, -1L, error);
        }
        for (ProducerBatch batch : accumulator.incompleteBatches()) {
            finish(batch, -1L, -1L, error);
        }
    }

    private int totalInFlight() {
        int total = 0;
        for (int n : inFlight.values()) {
            total += n;
        }
        return total;
    }

    private static Throwable unwrap(Throwable error) {
        Throwable e = error;
        while ((e instanceof CompletionException || e instanceof ExecutionException) && e.getCause() != null) {
            e = e.getCause();
        }
        return e;
    }

    /**
     * A partition's batch is new or full. While a batch of that partition is in flight (order is
     * kept) no pass could send it: its answer brings the next pass, which sees the batch, so the
     * sending thread does not wake the I/O thread for nothing. The partition is unmuted before that
     * pass looks at the queues, and the batch was queued before this check, so none is missed.
     */
    private void batchReady(TopicPartition tp) {
        if (!muted.contains(tp)) {
            wakeup();
        }
    }

    /** Asks for a pass on the I/O thread soon; cheap when one is already asked for. */
    public void wakeup() {
        if (!wakeupPending.getAndSet(true)) {
            try {
                io.execute(this::pass);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                wakeupPending.set(false); // the client is closing; close() fails what is left
            }
        }
    }

    /** Stops taking new work once what is queued and in flight is done. */
    public void initiateClose() {
        running = false;
        wakeup();
    }

    /** Stops at once, failing every incomplete batch. */
    public void forceClose() {
        forceClose = true;
        initiateClose();
    }
}
