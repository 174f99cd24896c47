package io.millrace.consumer.internals;

import io.millrace.common.TopicPartition;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.RebalanceListener;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiFunction;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The paper's Algorithm 1 for one consumer, and the ownership it leaves behind. A rebalance first
 * gives everything up (stop fetching, commit the consumed offsets, release the owner nodes), then
 * reads the consumer registry and the partitions of each subscribed topic, takes its
 * {@link RangeAssignor} range of every topic, and claims each partition in the ownership registry.
 * If a partition is still owned by another consumer (which has not run its own rebalance yet), it
 * releases everything it claimed, backs off {@code rebalance.backoff.ms} and starts again, up to
 * {@code rebalance.max.retries} times. Once every claim holds, fetching starts from the committed
 * offsets (or from {@code auto.offset.reset} for partitions the group never committed).
 *
 * <p>Thread-safe: every method holds one lock, so commits never interleave with a hand-over. The
 * one slow step of a rebalance, ListOffsets (a request timeout when a broker is down), runs with the
 * lock released, so a {@link #commit()} or the auto-commit never waits behind it.
 */
public final class Rebalancer {

    private static final Logger log = LoggerFactory.getLogger(Rebalancer.class);

    private final GroupRegistry registry;
    private final ConsumerRegistration me;
    private final TopicPartitionSource partitionSource;
    private final BiFunction<String, Integer, BlockingQueue<FetchedChunk>> queues;
    private final FetcherManager fetchers;
    private final OffsetLookup offsets;
    private final ConsumerConfig config;
    private final Map<TopicPartition, OwnedPartition> owned = new TreeMap<>();
    /** {@link #owned}'s partitions as of its last change, for {@link #stopDelivery} and {@link #owned()} without the lock. */
    private volatile List<OwnedPartition> ownedView = List.of();
    private volatile RebalanceListener listener = RebalanceListener.NONE;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition retryBackoff = lock.newCondition();
    private ZooKeeper claimSession;   // the session the owned partitions were claimed on: commits go through it
    private Map<String, Integer> partitionCounts = Map.of();
    private boolean closed;

    /** Where a rebalance learns the partitions of the subscribed topics (the Metadata API). */
    public interface TopicPartitionSource {
        /** Partition counts of every topic {@code me} subscribes to, by topic; a missing topic is left out. */
        Map<String, Integer> partitionCounts(ConsumerRegistration me);
    }

    public Rebalancer(GroupRegistry registry, ConsumerRegistration me, TopicPartitionSource partitionSource,
                      BiFunction<String, Integer, BlockingQueue<FetchedChunk>> queues, FetcherManager fetchers,
                      OffsetLookup offsets, ConsumerConfig config) {
        this.registry = registry;
        this.me = me;
        this.partitionSource = partitionSource;
        this.queues = queues;
        this.fetchers = fetchers;
        this.offsets = offsets;
        this.config = config;
    }

    /** Runs Algorithm 1 until it holds, or gives up after the retries; true when every claim succeeded. */
    public boolean rebalance() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            return rebalanceLocked();
        } finally {
            lock.unlock();
        }
    }

    private boolean rebalanceLocked() throws InterruptedException {
        if (stillHolds()) {
            return true;
        }
        int retries = config.getInt(ConsumerConfig.REBALANCE_MAX_RETRIES_CONFIG);
        for (int attempt = 0; attempt <= retries && !closed; attempt++) {
            releaseAll(true);
            Map<String, Integer> counts = partitionSource.partitionCounts(me);
            Map<TopicPartition, String> mine = assignment(registry.members(), counts);
            if (claimAll(mine)) {
                partitionCounts = counts;
                startOrRelease(mine);
                log.info("Consumer {} owns {} partitions after rebalance attempt {}: {}", me.consumerId(), mine.size(),
                    attempt + 1, mine.keySet());
                return true;
            }
            log.info("Consumer {}: a partition is still owned by another consumer; retrying in {} ms (attempt {} of {})",
                me.consumerId(), backoffMs(), attempt + 1, retries + 1);
            retryBackoff.await(backoffMs(), TimeUnit.MILLISECONDS);   // releases the lock so close can go on meanwhile
        }
        if (closed) {
            return false;
        }
        log.error("Consumer {} could not settle its partitions after {} attempts; waiting for the next change",
            me.consumerId(), retries + 1);
        return false;
    }

    /**
     * Whether Algorithm 1 would give this consumer exactly what it owns now, each owner node still its
     * own: then there is nothing to hand over. Watches fire more often than the group changes (at start,
     * for other groups' members of the same topics), and giving everything up for nothing would make
     * the streams deliver again the records the application has in hand.
     */
    private boolean stillHolds() {
        if (owned.isEmpty()) {
            return false;
        }
        Map<String, Integer> counts = partitionSource.partitionCounts(me);
        Map<TopicPartition, String> mine = assignment(registry.members(), counts);
        if (!mine.keySet().equals(owned.keySet())) {
            return false;
        }
        for (OwnedPartition partition : owned.values()) {
            if (partition.isRevoked() || !partition.threadId().equals(mine.get(partition.tp()))
                    || !partition.threadId().equals(registry.owner(partition.tp()))) {
                return false;
            }
        }
        partitionCounts = counts;
        log.debug("Consumer {}: the group's assignment leaves its partitions as they are", me.consumerId());
        return true;
    }

    private long backoffMs() {
        return Math.max(1, config.getInt(ConsumerConfig.REBALANCE_BACKOFF_MS_CONFIG));
    }

    /** Partition → owning thread of this consumer, by Algorithm 1 over every member's subscription. */
    Map<TopicPartition, String> assignment(Map<String, ConsumerRegistration> members, Map<String, Integer> counts) {
        Map<TopicPartition, String> mine = new TreeMap<>();
        for (Map.Entry<String, Integer> topic : counts.entrySet()) {
            List<String> threads = new ArrayList<>();
            members.values().forEach(member -> threads.addAll(member.threadsFor(topic.getKey())));
            List<Integer> partitions = new ArrayList<>();
            for (int p = 0; p < topic.getValue(); p++) {
                partitions.add(p);
            }
            for (String thread : me.threadsFor(topic.getKey())) {
                for (int p : RangeAssignor.assign(partitions, threads, thread)) {
                    mine.put(new TopicPartition(topic.getKey(), p), thread);
                }
            }
        }
        return mine;
    }

    /**
     * Claims every partition of {@code mine}, or none: on a partition still owned by another consumer,
     * and on a ZooKeeper error, what was claimed so far is released again, so that no failure leaves an
     * owner node behind that this consumer does not know it holds.
     */
    private boolean claimAll(Map<TopicPartition, String> mine) {
        claimSession = registry.session();
        Map<TopicPartition, String> claimed = new TreeMap<>();
        try {
            for (Map.Entry<TopicPartition, String> claim : mine.entrySet()) {
                if (!registry.claim(claim.getKey(), claim.getValue())) {
                    releaseClaims(claimed);
                    return false;
                }
                claimed.put(claim.getKey(), claim.getValue());
            }
            return true;
        } catch (RuntimeException e) {
            releaseClaims(claimed);
            throw e;
        }
    }

    /**
     * ListOffsets may wait a whole request timeout for a broker that is down: meanwhile the lock is
     * free, so commits (of nothing: this consumer owns nothing at this point) and close go on. A close
     * that happened meanwhile ends the rebalance, and its claims are released.
     */
    private Map<TopicPartition, Long> lookUpUnlocked(List<TopicPartition> partitions) {
        Map<TopicPartition, Long> found;
        lock.unlock();
        try {
            found = offsets.offsets(partitions, config.resetToEarliest() ? -2L : -1L);
        } finally {
            lock.lock();
        }
        if (closed) {
            throw new IllegalStateException("Closed while looking up start offsets");
        }
        return found;
    }

    /** Starts fetching what was claimed; if that fails (no offsets from a broker that is down), gives it all up. */
    private void startOrRelease(Map<TopicPartition, String> mine) {
        try {
            start(mine);
        } catch (RuntimeException e) {
            fetchers.stopAll();
            owned.values().forEach(OwnedPartition::revoke);
            owned.clear();
            publishOwned();
            releaseClaims(mine);
            throw e;
        }
    }

    /** Releases owner nodes, each attempt on its own: one failing must not keep the others. */
    private void releaseClaims(Map<TopicPartition, String> claims) {
        claims.forEach((tp, thread) -> {
            try {
                registry.release(tp, thread);
            } catch (RuntimeException e) {
                log.warn("Consumer {}: could not release {} ({}); its node goes with this session", me.consumerId(),
                    tp, e.toString());
            }
        });
    }

    private void start(Map<TopicPartition, String> mine) {
        List<TopicPartition> needReset = new ArrayList<>();
        Map<TopicPartition, Long> starts = new HashMap<>();
        for (TopicPartition tp : mine.keySet()) {
            OptionalLong committed = registry.committedOffset(tp);
            if (committed.isPresent()) {
                starts.put(tp, committed.getAsLong());
            } else {
                needReset.add(tp);
            }
        }
        if (!needReset.isEmpty()) {
            starts.putAll(lookUpUnlocked(needReset));
        }
        for (Map.Entry<TopicPartition, String> entry : mine.entrySet()) {
            TopicPartition tp = entry.getKey();
            String thread = entry.getValue();
            int stream = Integer.parseInt(thread.substring(thread.lastIndexOf('-') + 1));
            OwnedPartition partition = new OwnedPartition(tp, thread, queues.apply(tp.topic(), stream), starts.get(tp));
            partition.committed(registry.committedOffset(tp).orElse(-1));
            owned.put(tp, partition);
        }
        publishOwned();
        fetchers.assign(owned.values());
    }

    private void publishOwned() {
        ownedView = List.copyOf(owned.values());
    }

    /**
     * Gives up every partition: stop fetching, ask the {@link RebalanceListener} whether to commit (when
     * {@code commit}), commit, revoke, release the owner nodes, tell the listener.
     */
    public void releaseAll(boolean commit) {
        lock.lock();
        try {
            fetchers.stopAll();
            if (owned.isEmpty()) {
                return;
            }
            Set<TopicPartition> giving = new TreeSet<>(owned.keySet());
            RebalanceListener listener = this.listener;
            try {
                boolean commitNow = commit && listener.beforeCommit(giving);
                for (OwnedPartition partition : owned.values()) {
                    long consumed = partition.revoke();
                    partition.queue().clear();
                    if (commitNow && consumed >= 0 && consumed != partition.committed()) {
                        commitBeforeRelease(partition, consumed);
                    }
                    registry.release(partition.tp(), partition.threadId());
                }
                owned.clear();
                publishOwned();
            } finally {
                listener.afterRelease(giving);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Who is told before the offsets of partitions given up are committed; {@link RebalanceListener#NONE} by default. */
    public void setListener(RebalanceListener listener) {
        this.listener = listener;
    }

    /**
     * The last commit of a partition given up. Retried with a growing pause for as long as the consumer may
     * still own the partition through a ZooKeeper outage (a third of the session timeout, the bound after
     * which it stops delivering anyway), since releasing the owner node after a failed commit would hand
     * the next owner an older offset (duplicates); a partition this consumer no longer owns is not
     * retried (its new owner commits from here on).
     */
    private void commitBeforeRelease(OwnedPartition partition, long consumed) {
        long deadline = System.nanoTime()
            + TimeUnit.MILLISECONDS.toNanos(config.getInt(ConsumerConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG) / 3);
        long pauseMs = 50;
        for (int attempt = 1; ; attempt++) {
            try {
                registry.commitAsOwner(claimSession, partition.tp(), consumed);
                return;
            } catch (GroupRegistryException e) {
                boolean notOwned = e.getCause() instanceof org.apache.zookeeper.KeeperException.SessionExpiredException
                    || e.getCause() instanceof org.apache.zookeeper.KeeperException.NoNodeException
                    || e.getCause() instanceof org.apache.zookeeper.KeeperException.BadVersionException;
                if (notOwned || System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(pauseMs) > deadline) {
                    log.warn("Consumer {}: giving up {} without committing offset {} after {} attempts: {}",
                        me.consumerId(), partition.tp(), consumed, attempt, e.getMessage());
                    return;
                }
                log.warn("Consumer {}: commit of {} failed (attempt {}), retrying in {} ms: {}", me.consumerId(),
                    partition.tp(), attempt, pauseMs, e.getMessage());
                if (!pause(pauseMs)) {
                    return;
                }
                pauseMs = Math.min(pauseMs * 2, 1_000);
            }
        }
    }

    private static boolean pause(long ms) {
        try {
            Thread.sleep(ms);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Gives everything up for good (committing first); a rebalance under way stops. */
    public void close() {
        lock.lock();
        try {
            retryBackoff.signalAll();
            closed = true;
            releaseAll(true);
        } finally {
            lock.unlock();
        }
    }

    /** After the ZooKeeper session is lost: stop delivering, touch nothing in ZooKeeper (the session's nodes are gone). */
    public void dropAll() {
        stopDelivery();
        lock.lock();
        try {
            owned.values().forEach(OwnedPartition::revoke);
            owned.clear();
            publishOwned();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Stops delivery from every owned partition at once, from any thread, without waiting for the
     * lock: a rebalance in progress may hold it for as long as ZooKeeper is unreachable, which is when
     * delivery must stop. The partitions stay in {@link #owned} (revoked) until the next rebalance or
     * {@link #dropAll}, which no longer finds anything to deliver.
     */
    public void stopDelivery() {
        fetchers.stopAll();
        for (OwnedPartition partition : ownedView) {
            partition.revoke();
            partition.queue().clear();
        }
    }

    /** Writes the consumed offset of every owned partition that moved since its last commit. */
    public void commit() {
        lock.lock();
        try {
            for (OwnedPartition partition : owned.values()) {
                long consumed = partition.consumedOffset();
                if (consumed >= 0 && consumed != partition.committed()) {
                    registry.commitAsOwner(claimSession, partition.tp(), consumed);
                    partition.committed(consumed);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Moves an owned partition to {@code offset}: the next message its stream delivers is the one at
     * {@code offset}. Chunks already queued from the old position are dropped.
     */
    public void seek(TopicPartition tp, long offset) {
        lock.lock();
        try {
            OwnedPartition old = owned.get(tp);
            if (old == null) {
                throw new IllegalStateException("This consumer does not own " + tp + "; it owns " + owned.keySet());
            }
            old.revoke();
            fetchers.remove(tp);
            OwnedPartition moved = new OwnedPartition(tp, old.threadId(), old.queue(), offset);
            moved.committed(old.committed());
            owned.put(tp, moved);
            publishOwned();
            fetchers.assign(List.of(moved));
        } finally {
            lock.unlock();
        }
    }

    /** The partitions this consumer owns and delivers from (a revoked one no longer counts); does not wait for a rebalance. */
    public Set<TopicPartition> owned() {
        Set<TopicPartition> delivering = new TreeSet<>();
        for (OwnedPartition partition : ownedView) {
            if (!partition.isRevoked()) {
                delivering.add(partition.tp());
            }
        }
        return delivering;
    }

    /** The lag of every partition this consumer delivers from, as of its last fetch answer (-1 before the first). */
    public Map<TopicPartition, Long> lag() {
        Map<TopicPartition, Long> lag = new TreeMap<>();
        for (OwnedPartition partition : ownedView) {
            if (!partition.isRevoked()) {
                lag.put(partition.tp(), partition.lag());
            }
        }
        return lag;
    }

    /** The partition counts the last successful rebalance saw, to notice added partitions or topics. */
    public Map<String, Integer> partitionCounts() {
        lock.lock();
        try {
            return partitionCounts;
        } finally {
            lock.unlock();
        }
    }
}
