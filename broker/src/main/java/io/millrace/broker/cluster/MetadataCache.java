package io.millrace.broker.cluster;

import io.millrace.common.errors.MillraceException;
import java.time.Duration;
import java.util.ArrayList;
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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's view of the cluster: Curator {@link CuratorCache}s over the subtrees of
 * {@value ClusterPaths#ROOT} that hold cluster metadata ({@link ClusterPaths#METADATA_SUBTREES}),
 * folded into an immutable {@link ClusterSnapshot} that is swapped in on every change. The
 * consumers' registries are left out: every committed offset is a znode write there, and a cache
 * over them would make each broker read every commit of every group again. Lookups read a volatile field and take no lock. While ZooKeeper is
 * unreachable the last snapshot keeps answering.
 *
 * <p><b>Every reconnection means a fresh read.</b> ZooKeeper does not replay the events a
 * persistent watch missed while disconnected; CuratorCache catches up by re-reading the znodes
 * it holds, but reports one as changed only when its version differs. A znode deleted and created
 * again meanwhile (a broker re-registering, a topic re-created) is back at version 0, like the
 * one the cache holds, and would never be reported. So on every reconnection a new cache reads
 * the whole tree into a fresh view, which replaces the old view (and the old cache) once
 * complete; meanwhile the old cache keeps the view as current as it can.
 *
 * <p>Thread-safe. Znode events of every cache arrive on Curator's one cache thread (a folder also takes its own lock for them); listeners and
 * {@link #whenTrue} futures run on one notification thread per broker, in snapshot order.
 */
public final class MetadataCache implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MetadataCache.class);

    private enum State { LATENT, STARTED, CLOSED }

    private final AtomicReference<State> state = new AtomicReference<>(State.LATENT);
    private final CuratorFramework client;
    private final CompletableFuture<Void> initialized = new CompletableFuture<>();
    private final List<MetadataListener> listeners = new CopyOnWriteArrayList<>();
    private final Queue<Waiter> waiters = new ConcurrentLinkedQueue<>();
    private final ExecutorService notifier;
    /** Every cache not yet retired, the one being read afresh included; closed on close(). */
    private final List<Folder> folders = new CopyOnWriteArrayList<>();
    /** The folder whose view is published. Written on the cache thread only. */
    private volatile Folder active;
    private final AtomicLong generations = new AtomicLong();
    private final ConnectionStateListener reconnections = this::onConnectionStateChange;
    private volatile ClusterSnapshot snapshot = ClusterSnapshot.EMPTY;

    MetadataCache(CuratorFramework client, String name) {
        this.client = client;
        this.notifier = Executors.newSingleThreadExecutor(r -> {
            Thread thread = new Thread(r, name + "-metadata-notifier");
            thread.setDaemon(true);
            return thread;
        });
    }

    /** Starts the cache and waits until it has read the whole tree once. */
    void start(Duration timeout) throws InterruptedException {
        if (!state.compareAndSet(State.LATENT, State.STARTED)) {
            throw new IllegalStateException("Metadata cache already started or closed");
        }
        client.getConnectionStateListenable().addListener(reconnections);
        startFolder();
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
        State previous = state.getAndSet(State.CLOSED);
        if (previous == State.CLOSED) {
            return;
        }
        if (previous == State.STARTED) {
            client.getConnectionStateListenable().removeListener(reconnections);
            folders.forEach(Folder::retire);
        }
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

    /**
     * Adds {@code listener} after telling it of the current snapshot (as a change from null), on the
     * notification thread, so that it misses no change and sees none before the current state.
     */
    public void addListenerFromCurrent(MetadataListener listener) {
        notifier.execute(() -> {
            listener.onMetadataChange(null, snapshot);
            listeners.add(listener);
        });
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

    private void onConnectionStateChange(CuratorFramework ignored, ConnectionState newState) {
        if (newState == ConnectionState.RECONNECTED && state.get() == State.STARTED) {
            log.info("Reconnected to ZooKeeper: reading the cluster metadata afresh");
            startFolder();
        }
    }

    private void startFolder() {
        Folder folder = new Folder(generations.incrementAndGet());
        folders.add(folder);
        folder.start();
    }

    private void publish(ClusterSnapshot current) {
        ClusterSnapshot previous = snapshot;
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

    /**
     * One cache per metadata subtree and the view they build. Their events update its view; once
     * every cache has read its subtree the folder becomes the active one, whose view is published,
     * and retires every older one. A folder that completes after a newer one retires itself.
     */
    private final class Folder {
        final List<CuratorCache> caches = new ArrayList<>();
        final long generation;
        final ClusterView view = new ClusterView();
        int uninitialized = ClusterPaths.METADATA_SUBTREES.size();
        volatile boolean retired;

        Folder(long generation) {
            this.generation = generation;
            for (String subtree : ClusterPaths.METADATA_SUBTREES) {
                CuratorCache cache = CuratorCache.build(client, subtree);
                cache.listenable().addListener(new CuratorCacheListener() {
                    @Override
                    public void event(Type type, ChildData oldData, ChildData data) {
                        onEvent(type, oldData, data);
                    }

                    @Override
                    public void initialized() {
                        onInitialized();
                    }
                });
                caches.add(cache);
            }
        }

        void start() {
            caches.forEach(CuratorCache::start);
        }

        synchronized void onEvent(CuratorCacheListener.Type type, ChildData oldData, ChildData data) {
            if (retired) {
                return;
            }
            boolean changed = type == CuratorCacheListener.Type.NODE_DELETED ? view.remove(oldData.getPath())
                : view.put(data);
            if (changed && active == this) {
                publish(view.snapshot());
            }
        }

        synchronized void onInitialized() {
            if (--uninitialized > 0) {
                return;
            }
            Folder current = active;
            if (retired || (current != null && current.generation > generation)) {
                retire();
                return;
            }
            active = this;
            folders.stream().filter(f -> f.generation < generation).forEach(Folder::retire);
            publish(view.snapshot());
            initialized.complete(null);
        }

        void retire() {
            retired = true;
            folders.remove(this);
            caches.forEach(CuratorCache::close);
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
