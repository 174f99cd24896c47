package io.millrace.broker.server;

import io.millrace.broker.cluster.ProducerIdBlock;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands out producer ids from blocks allocated in ZooKeeper (see {@code docs/zookeeper.md}), so
 * that no id is handed out twice in the cluster's lifetime, whatever the broker and however often
 * it restarts. Ids within a block are handed out in increasing order.
 *
 * <p>Blocks are fetched on a thread of their own, never on a request thread: the first at
 * {@link #start}, the next one ahead of time once a tenth of the current block is left. A request
 * that finds every id used up waits for the block being fetched, at most {@code maxWait}, without
 * holding its thread; then it fails with COORDINATOR_LOAD_IN_PROGRESS, which Kafka's producer
 * retries. A fetch that fails on ZooKeeper's connection gives COORDINATOR_LOAD_IN_PROGRESS too;
 * any other failure (ids exhausted, a znode that does not parse) UNKNOWN_SERVER_ERROR. The next
 * request after a failure starts a fresh fetch. Thread-safe.
 */
final class ProducerIdManager implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProducerIdManager.class);

    /** Where blocks come from: {@code ZkCluster::allocateProducerIdBlock} in a broker. */
    @FunctionalInterface
    interface BlockSource {
        ProducerIdBlock allocate() throws Exception;
    }

    private final BlockSource source;
    private final Duration maxWait;
    private final ExecutorService fetcher;

    // Guarded by this.
    private ProducerIdBlock current;
    private long nextId;
    private ProducerIdBlock prefetched;
    private CompletableFuture<Void> pending;
    private boolean closed;

    ProducerIdManager(BlockSource source, Duration maxWait, String threadName) {
        this.source = source;
        this.maxWait = maxWait;
        this.fetcher = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, threadName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Fetches the first block, in the background. */
    synchronized void start() {
        requestFetch();
    }

    /**
     * The next producer id; fails with an {@link ApiException} carrying COORDINATOR_LOAD_IN_PROGRESS
     * or UNKNOWN_SERVER_ERROR as described above. Never blocks the caller.
     */
    CompletableFuture<Long> nextId() {
        return attempt().orTimeout(maxWait.toNanos(), TimeUnit.NANOSECONDS).handle((id, failure) -> {
            if (failure == null) {
                return id;
            }
            throw new CompletionException(asApiException(failure));
        });
    }

    private CompletableFuture<Long> attempt() {
        CompletableFuture<Void> waiting;
        synchronized (this) {
            long id = take();
            if (id >= 0) {
                return CompletableFuture.completedFuture(id);
            }
            waiting = pending;
        }
        if (waiting == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("Producer id allocation is closed"));
        }
        // Another request may empty the new block first; then this one waits for the next.
        return waiting.thenCompose(ignored -> attempt());
    }

    /** An id from the current (or prefetched) block, or -1 with a fetch under way. Holds the lock. */
    private long take() {
        if (current == null || nextId > current.lastId()) {
            if (prefetched == null) {
                requestFetch();
                return -1;
            }
            current = prefetched;
            nextId = current.firstId();
            prefetched = null;
        }
        long id = nextId++;
        if (prefetched == null && current.lastId() - id < Math.max(1, current.size() / 10)) {
            requestFetch();
        }
        return id;
    }

    /** Holds the lock. */
    private void requestFetch() {
        if (pending != null || closed) {
            return;
        }
        try {
            pending = CompletableFuture.runAsync(this::fetch, fetcher);
        } catch (RejectedExecutionException e) {
            pending = null;
        }
    }

    private void fetch() {
        ProducerIdBlock block;
        try {
            block = source.allocate();
        } catch (Exception e) {
            LOG.warn("Could not allocate a block of producer ids: {}", e.toString());
            synchronized (this) {
                pending = null;
            }
            throw new CompletionException(e);
        }
        synchronized (this) {
            prefetched = block;
            pending = null;
        }
    }

    private static ApiException asApiException(Throwable failure) {
        Throwable cause = failure;
        while (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof ApiException api) {
            return api;
        }
        if (cause instanceof TimeoutException) {
            return new ApiException(Errors.COORDINATOR_LOAD_IN_PROGRESS, "No producer id block yet; retry");
        }
        if (cause instanceof KeeperException.ConnectionLossException || cause instanceof KeeperException.SessionExpiredException
            || cause instanceof KeeperException.OperationTimeoutException || cause instanceof InterruptedException) {
            return new ApiException(Errors.COORDINATOR_LOAD_IN_PROGRESS, "ZooKeeper is unreachable: " + cause);
        }
        LOG.error("Producer id allocation failed", cause);
        return new ApiException(Errors.UNKNOWN_SERVER_ERROR, "Producer id allocation failed: " + cause);
    }

    @Override
    public void close() {
        synchronized (this) {
            closed = true;
        }
        fetcher.shutdownNow();
    }
}
