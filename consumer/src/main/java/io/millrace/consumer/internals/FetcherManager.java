package io.millrace.consumer.internals;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.OffsetResetListener;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps one {@link Fetcher} thread per broker that leads a partition this consumer owns, and finds
 * the leader of every partition that has none: partitions whose leader is unknown, gone or moved
 * wait here, and every {@code retry.backoff.ms} the manager refreshes the metadata and hands them to
 * their leader's fetcher. Thread-safe.
 */
public final class FetcherManager {

    private static final Logger log = LoggerFactory.getLogger(FetcherManager.class);

    private final NetworkClient client;
    private final Metadata metadata;
    private final ConsumerConfig config;
    private final OffsetLookup offsets;
    private final String clientName;
    private final int requestTimeoutMs;
    private final Map<Integer, Fetcher> fetchers = new HashMap<>();
    private final Set<OwnedPartition> leaderless = ConcurrentHashMap.newKeySet();

    private volatile OffsetResetListener resetListener = OffsetResetListener.NONE;

    public FetcherManager(NetworkClient client, Metadata metadata, ConsumerConfig config, OffsetLookup offsets,
                          String clientName, int requestTimeoutMs, ScheduledExecutorService scheduler, long retryBackoffMs) {
        this.client = client;
        this.metadata = metadata;
        this.config = config;
        this.offsets = offsets;
        this.clientName = clientName;
        this.requestTimeoutMs = requestTimeoutMs;
        scheduler.scheduleWithFixedDelay(this::findLeaders, retryBackoffMs, retryBackoffMs, TimeUnit.MILLISECONDS);
    }

    /** Starts fetching these partitions, each from its leader. */
    public synchronized void assign(Collection<OwnedPartition> partitions) {
        for (OwnedPartition partition : partitions) {
            Node leader = metadata.cluster().leaderFor(partition.tp());
            if (leader == null) {
                leaderless.add(partition);
            } else {
                fetcherFor(leader).add(partition);
            }
        }
    }

    /** Stops fetching a partition (its state has been revoked or replaced). */
    public synchronized void remove(TopicPartition tp) {
        fetchers.values().forEach(f -> f.remove(tp));
        leaderless.removeIf(p -> p.tp().equals(tp));
    }

    /** Stops every fetcher and forgets every partition; fetches in flight end on their own. */
    public synchronized void stopAll() {
        fetchers.values().forEach(Fetcher::shutdown);
        fetchers.clear();
        leaderless.clear();
    }

    /** {@link #stopAll()}, then waits a bounded time for the threads to end. */
    public void close() throws InterruptedException {
        List<Fetcher> stopping;
        synchronized (this) {
            stopping = new ArrayList<>(fetchers.values());
            stopAll();
        }
        for (Fetcher fetcher : stopping) {
            fetcher.awaitTermination(requestTimeoutMs);
        }
    }

    void leaderLost(OwnedPartition partition) {
        if (!partition.isRevoked()) {
            leaderless.add(partition);
        }
    }

    /**
     * An out-of-range offset (retention deleted it, or a seek went too far): go to the earliest or
     * latest offset, as {@code auto.offset.reset} says, and say so loudly.
     */
    void resetOutOfRange(OwnedPartition partition) {
        TopicPartition tp = partition.tp();
        long offset = config.resetToEarliest() ? offsets.earliest(tp) : offsets.latest(tp);
        long from = partition.fetchOffset();
        log.warn("Offset {} is out of range for {}; resetting to the {} offset {} (auto.offset.reset)",
            from, tp, config.resetToEarliest() ? "earliest" : "latest", offset);
        resetListener.onReset(tp, from, offset);
        partition.resetTo(offset);
    }

    /** Who is told of every reset of an out-of-range offset. */
    public void setResetListener(OffsetResetListener listener) {
        this.resetListener = listener;
    }

    /** Partitions waiting for a leader, for tests and metrics. */
    public int leaderlessCount() {
        return leaderless.size();
    }

    private void findLeaders() {
        try {
            pruneDeadFetchers();
            if (leaderless.isEmpty()) {
                return;
            }
            metadata.requestUpdate().get(requestTimeoutMs, TimeUnit.MILLISECONDS);
            reassignLeaderless();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.debug("Metadata refresh for leaderless partitions failed: {}", e.toString());
        }
    }

    private synchronized void reassignLeaderless() {
        List<OwnedPartition> waiting = new ArrayList<>(leaderless);
        for (OwnedPartition partition : waiting) {
            Node leader = metadata.cluster().leaderFor(partition.tp());
            if (partition.isRevoked()) {
                leaderless.remove(partition);
            } else if (leader != null) {
                leaderless.remove(partition);
                fetcherFor(leader).add(partition);
                log.info("Fetching {} from its leader {}", partition.tp(), leader);
            }
        }
    }

    private synchronized void pruneDeadFetchers() {
        fetchers.values().removeIf(f -> !f.isRunning());
    }

    private Fetcher fetcherFor(Node leader) {
        Fetcher fetcher = fetchers.get(leader.id());
        if (fetcher == null || !fetcher.isRunning() || !fetcher.broker().equals(leader)) {
            if (fetcher != null) {
                fetcher.shutdown();
            }
            fetcher = new Fetcher(leader, client, config, this, clientName + "-fetcher-" + leader.id(), requestTimeoutMs);
            fetchers.put(leader.id(), fetcher);
            fetcher.start();
        }
        return fetcher;
    }
}
