package io.millrace.broker.cluster;

import io.millrace.common.errors.MillraceException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.SortedSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's view of the cluster: a Curator {@link CuratorCache} over the whole
 * {@value ClusterPaths#ROOT} tree, folded into an immutable {@link ClusterSnapshot} that is
 * swapped in on every change. Lookups read a volatile field and take no lock. While ZooKeeper is
 * unreachable the last snapshot keeps answering; the cache re-reads the tree when the connection
 * returns.
 *
 * <p>Thread-safe. Znode events arrive on Curator's cache thread; listeners and
 * {@link #whenTrue} futures are run on one notification thread per cache, in snapshot order.
 */
public final class MetadataCache implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MetadataCache.class);

    private enum State { LATENT, STARTED, CLOSED }

    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final CuratorCache cache;
    private final ClusterView view = new ClusterView();
    private final CompletableFuture<Void> initialized = new CompletableFuture<>();
    private final List<MetadataListener> listeners = new CopyOnWriteArrayList<>();
    private final Queue<Waiter> waiters = new ConcurrentLinkedQueue<>();
    private final ExecutorService notifier;
    private volatile ClusterSnapshot snapshot = ClusterSnapshot.EMPTY;
    /** Set once the cache's first full read is done; before that, events only build the view. Cache thread only. */
    private boolean publishing;

    MetadataCache(CuratorFramework client, String name) {
        this.cache = CuratorCache.build(client, ClusterPaths.ROOT);
        this.notifier = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, name + "-metadata-notifier");
            thread.setDaemon(true);
            return thread;
        });
        cache.listenable().addListener(new Folder());
    }

    /** Starts the cache and waits until it has read the whole tree once. */
    void start(Duration timeout) throws InterruptedException {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("Metadata cache already started or closed");
        }
        cache.start();
        try {
            initialized.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new MillraceException("No complete view of ZooKeeper's " + ClusterPaths.ROOT + " tree after " + timeout.toMillis() + " ms");
        } catch (ExecutionException e) {
            throw new MillraceException("Metadata cache failed to start", e.getCause());
        }
    }

    @Override
    public void close() {
        if (state.getAndSet(State.CLOSED) != State.STARTED) {
            return;
        }
        cache.close();
        notifier.shutdown();
        MillraceException closed = new MillraceException("Metadata cache closed");
        Waiter waiter;
        while ((waiter = waiters.poll()) != null) {
            waiter.future.completeExceptionally(closed);
        }
    }

    /** The current view; never null (empty before start). */
    public ClusterSnapshot snapshot() {
        return snapshot;
    }

    public List<BrokerInfo> liveBrokers() {
        return snapshot.liveBrokers();
    }

    public SortedSet<String> topics() {
        return snapshot.topics();
    }

    public int partitionCount(String topic) {
        return snapshot.partitionCount(topic);
    }

    public int leader(String topic, int partition) {
        return snapshot.leader(topic, partition);
    }

    public int controllerId() {
        return snapshot.controllerId();
    }

    public Map<String, String> topicConfig(String topic) {
        return snapshot.topicConfig(topic);
    }

    public void addListener(MetadataListener listener) {
        listeners.add(listener);
    }

    public void removeListener(MetadataListener listener) {
        listeners.remove(listener);
    }

    /**
     * Reports the partitions assigned to {@code brokerId} as they come and go, starting with
     * those already assigned. Returns the listener registration, for {@link #removeListener}.
     */
    public MetadataListener addAssignmentListener(int brokerId, PartitionAssignmentListener listener) {
        AssignmentTracker tracker = new AssignmentTracker(brokerId, listener);
        notifier.execute(() -> {
            tracker.onMetadataChange(null, snapshot);
            listeners.add(tracker);
        });
        return tracker;
    }

    /**
     * A future completed with the first snapshot, the current one included, for which
     * {@code condition} holds. The condition must be cheap and free of side effects. Callers
     * bound the wait themselves ({@link CompletableFuture#orTimeout}); a future completed or
     * cancelled by its caller is forgotten at the next change.
     */
    public CompletableFuture<ClusterSnapshot> whenTrue(Predicate<ClusterSnapshot> condition) {
        Waiter waiter = new Waiter(condition, new CompletableFuture<>());
        waiters.add(waiter);
        // Added before checking, so a snapshot published in between is checked by the notifier.
        waiter.check(snapshot);
        return waiter.future;
    }

    private void publish() {
        ClusterSnapshot previous = snapshot;
        ClusterSnapshot current = view.snapshot();
        snapshot = current;
        log.debug("Metadata changed: {}", current);
        try {
            notifier.execute(() -> notifyAll(previous, current));
        } catch (RejectedExecutionException e) {
            // closed: events still in flight from Curator are dropped
        }
    }

    private void notifyAll(ClusterSnapshot previous, ClusterSnapshot current) {
        for (MetadataListener listener : listeners) {
            try {
                listener.onMetadataChange(previous, current);
            } catch (RuntimeException e) {
                log.error("Metadata listener {} failed", listener, e);
            }
        }
        waiters.removeIf(waiter -> waiter.check(current));
    }

    /** Folds Curator's znode events into the view; runs on Curator's cache thread. */
    private final class Folder implements CuratorCacheListener {
        @Override
        public void event(Type type, ChildData oldData, ChildData data) {
            boolean changed = type == Type.NODE_DELETED ? view.remove(oldData.getPath()) : view.put(data);
            if (changed && publishing) {
                publish();
            }
        }

        @Override
        public void initialized() {
            publishing = true;
            publish();
            initialized.complete(null);
        }
    }

    private static final class Waiter {
        final Predicate<ClusterSnapshot> condition;
        final CompletableFuture<ClusterSnapshot> future;

        Waiter(Predicate<ClusterSnapshot> condition, CompletableFuture<ClusterSnapshot> future) {
            this.condition = condition;
            this.future = future;
        }

        /** Completes the future if the condition holds; returns whether this waiter is finished. */
        boolean check(ClusterSnapshot current) {
            if (future.isDone()) {
                return true;
            }
            try {
                if (condition.test(current)) {
                    future.complete(current);
                    return true;
                }
                return false;
            } catch (RuntimeException e) {
                future.completeExceptionally(e);
                return true;
            }
        }
    }
}
