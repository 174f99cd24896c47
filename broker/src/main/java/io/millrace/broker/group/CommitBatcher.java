package io.millrace.broker.group;

import io.millrace.common.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Writes OffsetCommits on the registry thread, every commit queued when the thread gets to them in
 * one ZooKeeper transaction, so commits arriving together share a round trip and an fsync instead
 * of waiting for each other's. A transaction holds at most {@link #MAX_OPS} operations and
 * {@link #MAX_BYTES} bytes (ZooKeeper refuses a request over its 1 MiB {@code jute.maxbuffer}); a
 * single commit over those bounds still goes as one.
 *
 * <p>Each commit keeps its own answer. Its checks (which may refuse it alone) run before it joins a
 * transaction; the transaction holds only {@code setData}s of nodes made beforehand, and if it fails
 * anyway (a node deleted meanwhile, a ZooKeeper error) its commits are written again one transaction
 * each, so a commit fails only on its own account. Commits go in the order they were queued, so a
 * group's commits land in order. Drains are tasks of the registry thread like its other work, so a
 * fetch queued after a commit reads it.
 */
final class CommitBatcher {

    static final int MAX_OPS = 1_000;
    static final int MAX_BYTES = 512 * 1024;

    /** A commit's own checks and preparation, run on the registry thread before it is written. */
    interface Check {
        void run() throws Exception;
    }

    private record Pending(OffsetRegistry.Write write, Check check, CompletableFuture<Void> done) {
    }

    private final OffsetRegistry registry;
    private final Executor registryThread;
    private final Queue<Pending> queue = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainQueued = new AtomicBoolean();

    CommitBatcher(OffsetRegistry registry, Executor registryThread) {
        this.registry = registry;
        this.registryThread = registryThread;
    }

    /** Queues {@code offsets} of {@code group}; the future fails with {@code check}'s exception, if any, as its cause. */
    CompletableFuture<Void> submit(String group, Map<TopicPartition, OffsetRegistry.Committed> offsets, Check check) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        queue.add(new Pending(new OffsetRegistry.Write(group, offsets), check, done));
        if (drainQueued.compareAndSet(false, true)) {
            try {
                registryThread.execute(this::drain);
            } catch (RuntimeException rejected) {
                drainQueued.set(false);
                failAll(rejected);
            }
        }
        return done;
    }

    private void drain() {
        drainQueued.set(false); // before polling: a commit queued from here on queues another drain
        List<Pending> batch = new ArrayList<>();
        int ops = 0;
        int bytes = 0;
        for (Pending p; (p = queue.poll()) != null; ) {
            if (!passes(p)) {
                continue;
            }
            int pOps = p.write().operationCount();
            int pBytes = p.write().byteCount();
            if (!batch.isEmpty() && (ops + pOps > MAX_OPS || bytes + pBytes > MAX_BYTES)) {
                write(batch);
                batch = new ArrayList<>();
                ops = 0;
                bytes = 0;
            }
            batch.add(p);
            ops += pOps;
            bytes += pBytes;
        }
        if (!batch.isEmpty()) {
            write(batch);
        }
    }

    private static boolean passes(Pending p) {
        try {
            p.check().run();
            return true;
        } catch (Exception e) {
            p.done().completeExceptionally(new CompletionException(e));
            return false;
        }
    }

    private void write(List<Pending> batch) {
        try {
            registry.commitAll(batch.stream().map(Pending::write).toList());
            batch.forEach(p -> p.done().complete(null));
        } catch (Exception batchFailed) {
            // write them one by one so only the commit at fault fails
            for (Pending p : batch) {
                try {
                    registry.commit(p.write().group(), p.write().offsets());
                    p.done().complete(null);
                } catch (Exception e) {
                    p.done().completeExceptionally(new CompletionException(
                        new IllegalStateException("Could not commit offsets of group " + p.write().group(), e)));
                }
            }
        }
    }

    private void failAll(RuntimeException cause) {
        for (Pending p; (p = queue.poll()) != null; ) {
            p.done().completeExceptionally(new CompletionException(cause));
        }
    }
}
