package io.millrace.consumer.internals;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.protocol.message.FetchResponse.FetchableTopicResponse;
import io.millrace.common.protocol.message.FetchResponse.PartitionData;
import io.millrace.consumer.ConsumerConfig;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fetcher thread of one broker: pulls, in one Fetch request, every partition it leads for this
 * consumer whose stream has room, and queues each partition's records as a chunk for its stream.
 * A request takes no more partitions of a stream than its queue has free slots, and a chunk that
 * finds its queue full all the same (filled by another broker's fetcher) is dropped and fetched again
 * later: the fetcher never waits on one stream, so a stream nobody reads holds up only itself
 * (back-pressure). A partition the broker answers with an unexpected error is fetched again after a
 * growing backoff. Partitions the broker no longer leads, and all of them when the broker cannot be
 * reached, go back to the {@link FetcherManager} to find their new leader.
 *
 * <p>Partitions are added and removed from other threads; everything else runs on the fetcher's thread.
 */
final class Fetcher implements Runnable {

    private static final Logger log = LoggerFactory.getLogger(Fetcher.class);
    private static final long IDLE_WAIT_MS = 10;
    private static final long MAX_ERROR_BACKOFF_MS = 10_000;

    private final Node broker;
    private final NetworkClient client;
    private final ConsumerConfig config;
    private final FetcherManager manager;
    private final int requestTimeoutMs;
    private final Map<TopicPartition, OwnedPartition> partitions = new ConcurrentHashMap<>();
    private final Map<TopicPartition, ErrorBackoff> failing = new HashMap<>();   // fetcher thread only
    private final long retryBackoffMs;
    private final Thread thread;
    private volatile boolean running = true;

    Fetcher(Node broker, NetworkClient client, ConsumerConfig config, FetcherManager manager, String name, int requestTimeoutMs) {
        this.broker = broker;
        this.client = client;
        this.config = config;
        this.manager = manager;
        this.requestTimeoutMs = requestTimeoutMs;
        this.retryBackoffMs = Math.max(1, config.getLong(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG));
        this.thread = new Thread(this, name);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    Node broker() {
        return broker;
    }

    void add(OwnedPartition partition) {
        partitions.put(partition.tp(), partition);
    }

    void remove(TopicPartition tp) {
        partitions.remove(tp);
    }

    boolean isRunning() {
        return running;
    }

    /** Stops the loop; a fetch in flight is finished (or times out) and its chunks dropped. */
    void shutdown() {
        running = false;
    }

    void awaitTermination(long timeoutMs) throws InterruptedException {
        thread.join(timeoutMs);
    }

    @Override
    public void run() {
        try {
            while (running) {
                Map<TopicPartition, OwnedPartition> ready = readyPartitions();
                if (ready.isEmpty()) {
                    Thread.sleep(IDLE_WAIT_MS);   // every queue full or nothing assigned: wait for the streams to drain
                } else {
                    fetchOnce(ready);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            log.error("Fetcher of broker {} failed; handing its partitions back", broker, e);
            handBackAll();
        } finally {
            running = false;
        }
    }

    /** The partitions to fetch now: not revoked, not backing off, and no more per stream than its queue takes. */
    private Map<TopicPartition, OwnedPartition> readyPartitions() {
        Map<TopicPartition, OwnedPartition> ready = new LinkedHashMap<>();
        Map<Object, Integer> slotsTaken = new IdentityHashMap<>();
        long now = System.nanoTime();
        for (OwnedPartition partition : partitions.values()) {
            if (partition.isRevoked()) {
                partitions.remove(partition.tp(), partition);
                failing.remove(partition.tp());
            } else if (!isBackingOff(partition.tp(), now) && takeSlot(partition, slotsTaken)) {
                ready.put(partition.tp(), partition);
            }
        }
        return ready;
    }

    private static boolean takeSlot(OwnedPartition partition, Map<Object, Integer> slotsTaken) {
        int taken = slotsTaken.getOrDefault(partition.queue(), 0);
        if (taken >= partition.queue().remainingCapacity()) {
            return false;
        }
        slotsTaken.put(partition.queue(), taken + 1);
        return true;
    }

    private boolean isBackingOff(TopicPartition tp, long nowNanos) {
        ErrorBackoff backoff = failing.get(tp);
        return backoff != null && nowNanos < backoff.retryAtNanos;
    }

    private void fetchOnce(Map<TopicPartition, OwnedPartition> ready) throws InterruptedException {
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        ready.forEach((tp, partition) -> offsets.put(tp, partition.fetchOffset()));
        FetchRequest request = FetchRequests.of(config, offsets);
        FetchResponse response;
        try {
            response = client.<FetchResponse>send(broker, request, requestTimeoutMs + request.maxWaitMs())
                .get(requestTimeoutMs + request.maxWaitMs() + 1_000L, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            if (!running) {
                return;   // stopped meanwhile (a rebalance or close): the failure is ours, not the broker's
            }
            log.warn("Fetch from broker {} failed ({}); looking for the partitions' leaders again", broker,
                LeaderRetry.unwrap(e).toString());
            handBackAll();
            return;
        }
        for (FetchableTopicResponse topic : response.responses()) {
            for (PartitionData data : topic.partitions()) {
                OwnedPartition partition = ready.get(new TopicPartition(topic.topic(), data.partitionIndex()));
                if (partition != null && running) {
                    handle(partition, data);
                }
            }
        }
    }

    private void handle(OwnedPartition partition, PartitionData data) throws InterruptedException {
        Errors error = data.error();
        if (error == Errors.NONE) {
            failing.remove(partition.tp());
            partition.logEndOffset(data.highWatermark());
            enqueue(partition, FetchRequests.recordsOf(data));
        } else if (error == Errors.OFFSET_OUT_OF_RANGE) {
            manager.resetOutOfRange(partition);
        } else if (LeaderRetry.isLeaderError(error)) {
            log.info("Broker {} answered {} for {}; looking for its leader", broker, error, partition.tp());
            partitions.remove(partition.tp(), partition);
            manager.leaderLost(partition);
        } else {
            long delayMs = failing.computeIfAbsent(partition.tp(), tp -> new ErrorBackoff()).next(retryBackoffMs);
            log.error("Fetch of {} at offset {} failed: {}; retrying in {} ms", partition.tp(), partition.fetchOffset(),
                error, delayMs);
        }
    }

    /** The backoff of a partition that keeps failing: doubles from retry.backoff.ms up to 10 s. */
    private static final class ErrorBackoff {
        long delayMs;
        long retryAtNanos;

        long next(long initialMs) {
            delayMs = delayMs == 0 ? initialMs : Math.min(MAX_ERROR_BACKOFF_MS, delayMs * 2);
            retryAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs);
            return delayMs;
        }
    }

    private void enqueue(OwnedPartition partition, ByteBuffer records) {
        long fetchOffset = partition.fetchOffset();
        long next = RecordCursor.nextFetchOffset(records, fetchOffset);
        if (next == fetchOffset) {
            return;   // nothing new (or only a fragment of a batch too large for max.partition.fetch.bytes)
        }
        // Never waits: a full queue (another broker's fetcher got there first) means fetching these again later.
        if (!partition.isRevoked() && partition.queue().offer(new FetchedChunk(partition, records, fetchOffset))) {
            partition.fetchOffset(next);
        }
    }

    private void handBackAll() {
        for (OwnedPartition partition : partitions.values()) {
            manager.leaderLost(partition);
        }
        partitions.clear();
        running = false;
    }
}
