package io.millrace.broker.cluster;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.ChildData;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Follows one of our admin request znodes to its outcome with a single-node
 * {@link CuratorCache}:
 * <ul>
 * <li>the znode is gone: the controller carried the request out (it deletes only what it did);
 *     the result completes once this broker's metadata view shows the change;</li>
 * <li>the znode carries an error: the controller rejected it; the result fails with the matching
 *     exception and the znode is deleted;</li>
 * <li>neither by the deadline: the request is withdrawn by deleting the znode at the version we
 *     wrote. Either the withdrawal wins and nothing happened, or the controller got there first
 *     and the znode (gone, or marked) says what it did.</li>
 * </ul>
 * A cache rather than a plain watch: it re-arms itself across reconnections and reads the
 * znode after arming, so a request carried out before we looked is still noticed.
 *
 * <p>Thread-safe: the outcome is decided once ({@code settled}); all ZooKeeper work runs on the
 * admin thread.
 */
final class AdminRequestWatch {

    private static final Logger log = LoggerFactory.getLogger(AdminRequestWatch.class);

    private final CuratorFramework client;
    private final MetadataCache metadata;
    private final ScheduledExecutorService thread;
    private final String path;
    private final long requestZxid;
    private final int requestVersion;
    private final Predicate<ClusterSnapshot> visible;
    private final CompletableFuture<Void> result;
    private final Duration timeout;
    private final CuratorCache cache;
    private final AtomicBoolean settled = new AtomicBoolean();
    private final AtomicBoolean cacheOpen = new AtomicBoolean(true);
    private volatile boolean initialized;

    AdminRequestWatch(CuratorFramework client, MetadataCache metadata, ScheduledExecutorService thread, String path, Stat created,
                      Predicate<ClusterSnapshot> visible, CompletableFuture<Void> result, Duration timeout) {
        this.client = client;
        this.metadata = metadata;
        this.thread = thread;
        this.path = path;
        this.requestZxid = created.getCzxid();
        this.requestVersion = created.getVersion();
        this.visible = visible;
        this.result = result;
        this.timeout = timeout;
        this.cache = CuratorCache.build(client, path, CuratorCache.Options.SINGLE_NODE_CACHE);
    }

    void start() {
        cache.listenable().addListener(CuratorCacheListener.builder()
            .forAll((type, oldData, data) -> onThread(this::examine))
            .forInitialized(() -> {
                initialized = true;
                onThread(this::examine);
            })
            .build());
        ScheduledFuture<?> deadline = thread.schedule(this::expire, timeout.toMillis(), TimeUnit.MILLISECONDS);
        result.whenComplete((ignored, error) -> {
            deadline.cancel(false);
            closeCache();
        });
        cache.start();
    }

    private void examine() {
        if (result.isDone()) {
            return;
        }
        Optional<ChildData> node = cache.get(path).filter(n -> n.getStat().getCzxid() == requestZxid);
        if (node.isPresent()) {
            AdminRequest request = parse(node.get().getData(), node.get().getStat());
            if (!request.isPending()) {
                rejected(request);
            }
        } else if (initialized) {
            carriedOut();
        }
    }

    private void carriedOut() {
        if (!settled.compareAndSet(false, true)) {
            return;
        }
        closeCache();
        log.debug("Request {} was carried out; waiting for the metadata view", path);
        CompletableFuture<ClusterSnapshot> shown = metadata.whenTrue(visible);
        shown.whenComplete((snapshot, error) -> {
            if (error == null) {
                result.complete(null);
            } else {
                result.completeExceptionally(error);
            }
        });
        result.whenComplete((ignored, error) -> shown.cancel(false)); // forget the condition once the deadline passed
    }

    private void rejected(AdminRequest request) {
        if (!settled.compareAndSet(false, true)) {
            return;
        }
        closeCache();
        result.completeExceptionally(AdminError.exception(request.error(), request.message()));
        deleteQuietly(request.version());
    }

    private void expire() {
        if (result.isDone()) {
            return;
        }
        if (!settled.compareAndSet(false, true)) {
            result.completeExceptionally(timeout("the controller carried the request out but this broker's metadata did not show the "
                + "result (it may still be on its way, or this broker's ZooKeeper session was lost)"));
            return;
        }
        closeCache();
        withdraw();
    }

    private void withdraw() {
        try {
            client.delete().withVersion(requestVersion).forPath(path);
            result.completeExceptionally(timeout("no controller carried the request out; it was withdrawn (is a controller running?)"));
        } catch (KeeperException.BadVersionException e) {
            Stat stat = new Stat();
            AdminRequest request = parse(readQuietly(stat), stat);
            result.completeExceptionally(request.isPending() ? timeout("the request changed under us")
                : AdminError.exception(request.error(), request.message()));
            deleteQuietly(stat.getVersion());
        } catch (KeeperException.NoNodeException e) {
            result.completeExceptionally(timeout("the controller carried the request out just as it timed out"));
        } catch (Exception e) {
            result.completeExceptionally(timeout("the request could not be withdrawn: " + e));
        }
    }

    private TimeoutException timeout(String why) {
        return new TimeoutException(path + " not done within " + timeout.toMillis() + " ms: " + why);
    }

    private AdminRequest parse(byte[] data, Stat stat) {
        AdminRequest.Kind kind = AdminRequest.kindOf(path);
        String topic = path.substring(path.lastIndexOf('/') + 1);
        return ClusterJson.parseRequest(kind, topic, data, stat.getCzxid(), stat.getVersion());
    }

    private byte[] readQuietly(Stat stat) {
        try {
            return client.getData().storingStatIn(stat).forPath(path);
        } catch (Exception e) {
            return null;
        }
    }

    private void deleteQuietly(int version) {
        try {
            client.delete().withVersion(version).forPath(path);
        } catch (Exception e) {
            // Ephemeral: it goes with our session anyway.
            log.debug("Could not delete {}: {}", path, e.toString());
        }
    }

    private void onThread(Runnable action) {
        try {
            thread.execute(action);
        } catch (RejectedExecutionException e) {
            // closing; abandon() settles the result
        }
    }

    private void closeCache() {
        if (cacheOpen.compareAndSet(true, false)) {
            cache.close();
        }
    }
}
