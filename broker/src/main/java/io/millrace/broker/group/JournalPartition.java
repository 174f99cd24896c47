package io.millrace.broker.group;

import io.millrace.common.TopicPartition;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One partition of the offsets topic that this broker leads, in one leader epoch: the commits
 * appended to it that the offset registry does not hold yet, each with the log offset of its
 * record. The registry holds everything below {@link #mark}; a commit leaves this map once the
 * registry holds it. {@link #markVersion} is the ZooKeeper version of the partition's mark node as
 * this leader last wrote it: a write expecting it fails once another leader has written the node,
 * which fences a deposed leader's late writes.
 *
 * <p>Commits a transactional producer appended (TxnOffsetCommit) wait, pending, for its
 * transaction's marker: a commit marker makes them commits to write, an abort drops them. While
 * one waits, the mark stays below its first record.
 */
final class JournalPartition {

    /** A group's offset of one partition. */
    record Key(String group, TopicPartition partition) {
    }

    /**
     * A commit not yet in the registry: its value (null for a deletion), its record's offset in the
     * log, and the offset of the oldest record of the same key not in the registry either (that
     * one's, when it replaced others): a mark may not pass it while this commit is unwritten.
     */
    record Unwritten(OffsetRegistry.Committed committed, long logOffset, long firstLogOffset) {
    }

    /** A set of commits taken to be written, and the mark that writing them earns. */
    record Flush(Map<Key, Unwritten> entries, long mark) {
    }

    /** A producer's commits in its open transaction, from the offset of its first record here. */
    private static final class PendingTransaction {
        final long firstLogOffset;
        final Map<Key, Unwritten> commits = new HashMap<>();

        PendingTransaction(long firstLogOffset) {
            this.firstLogOffset = firstLogOffset;
        }
    }

    /** A group's latest generation in the log: its group metadata record's value and offset. */
    record StoredGroup(byte[] value, long logOffset) {
    }

    final int partition;
    /** The leader epoch it was loaded or last confirmed in. */
    volatile int leaderEpoch;
    private final Map<Key, Unwritten> unwritten = new HashMap<>();
    private final Map<String, StoredGroup> groups = new HashMap<>();
    /** The commits of transactions still open, by producer id: they count once the commit marker follows. */
    private final Map<Long, PendingTransaction> pending = new HashMap<>();
    /** Registry thread only. */
    long mark;
    /** Registry thread only. */
    int markVersion;
    /** Registry thread only. */
    private long rewrittenEnd;

    JournalPartition(int partition, int leaderEpoch, long mark, int markVersion) {
        this.partition = partition;
        this.leaderEpoch = leaderEpoch;
        this.mark = mark;
        this.markVersion = markVersion;
    }

    /**
     * Records commits appended in one batch from {@code firstOffset} to {@code lastOffset}; called
     * under this object's lock, together with the append.
     */
    void appended(String group, Map<TopicPartition, OffsetRegistry.Committed> offsets, long firstOffset, long lastOffset) {
        for (Map.Entry<TopicPartition, OffsetRegistry.Committed> e : offsets.entrySet()) {
            Key key = new Key(group, e.getKey());
            Unwritten replaced = unwritten.get(key);
            long first = replaced == null ? firstOffset : replaced.firstLogOffset();
            unwritten.put(key, new Unwritten(e.getValue(), lastOffset, first));
        }
    }

    /**
     * Records commits a transactional producer appended in its open transaction, from
     * {@code firstOffset} to {@code lastOffset}; under this object's lock, together with the append.
     */
    void transactionalAppended(long producerId, String group, Map<TopicPartition, OffsetRegistry.Committed> offsets,
                               long firstOffset, long lastOffset) {
        PendingTransaction transaction = pending.computeIfAbsent(producerId, id -> new PendingTransaction(firstOffset));
        for (Map.Entry<TopicPartition, OffsetRegistry.Committed> e : offsets.entrySet()) {
            transaction.commits.put(new Key(group, e.getKey()), new Unwritten(e.getValue(), lastOffset,
                transaction.firstLogOffset));
        }
    }

    /**
     * The producer's transaction ended: committed, its commits join those to write; aborted, they are
     * dropped. A producer with nothing pending here changes nothing. Under this object's lock.
     */
    void transactionEnded(long producerId, boolean commit) {
        PendingTransaction transaction = pending.remove(producerId);
        if (transaction == null || !commit) {
            return;
        }
        transaction.commits.forEach((key, entry) -> {
            Unwritten replaced = unwritten.get(key);
            long first = replaced == null ? entry.firstLogOffset() : Math.min(replaced.firstLogOffset(), entry.firstLogOffset());
            unwritten.put(key, new Unwritten(entry.committed(), entry.logOffset(), first));
        });
    }

    /** Whether an open transaction holds a commit of the group's partition: its committed offset may yet change. */
    synchronized boolean hasPendingCommit(String group, TopicPartition partition) {
        Key key = new Key(group, partition);
        return pending.values().stream().anyMatch(transaction -> transaction.commits.containsKey(key));
    }

    /** Records a group's generation appended at {@code logOffset} (null: it has none); under this object's lock. */
    void groupAppended(String group, byte[] value, long logOffset) {
        if (value == null) {
            groups.remove(group);
        } else {
            groups.put(group, new StoredGroup(value, logOffset));
        }
    }

    /** The offset of the oldest latest generation, or {@code Long.MAX_VALUE} when no group has one. */
    synchronized long oldestGroupOffset() {
        return groups.values().stream().mapToLong(StoredGroup::logOffset).min().orElse(Long.MAX_VALUE);
    }

    /** The generations whose records lie below {@code offset}; under this object's lock. */
    Map<String, byte[]> groupsBelow(long offset) {
        Map<String, byte[]> below = new HashMap<>();
        groups.forEach((group, stored) -> {
            if (stored.logOffset() < offset) {
                below.put(group, stored.value());
            }
        });
        return below;
    }

    /** Registry thread: the end of the last rewrite of generations; the log is not trimmed before it is replicated. */
    long rewrittenEnd() {
        return rewrittenEnd;
    }

    void rewritten(long end) {
        rewrittenEnd = end;
    }

    /** Whether the log holds a generation of the group. */
    synchronized boolean hasGroup(String group) {
        return groups.containsKey(group);
    }

    /** The latest generation of every group with one. */
    synchronized Map<String, StoredGroup> groups() {
        return Map.copyOf(groups);
    }

    /**
     * The commits whose records lie below {@code highWatermark}, and the mark to write with them: the
     * high watermark, or the oldest record of a commit left out if that is lower (a commit above the
     * high watermark may yet be lost with its leader, and the one it replaced must then be found again).
     */
    synchronized Flush takeBelow(long highWatermark) {
        Map<Key, Unwritten> below = new HashMap<>();
        long mark = highWatermark;
        // An open transaction's commits must be found again by the next leader, whatever it decides.
        for (PendingTransaction transaction : pending.values()) {
            mark = Math.min(mark, transaction.firstLogOffset);
        }
        for (Map.Entry<Key, Unwritten> e : unwritten.entrySet()) {
            if (e.getValue().logOffset() < highWatermark) {
                below.put(e.getKey(), e.getValue());
            } else {
                mark = Math.min(mark, e.getValue().firstLogOffset());
            }
        }
        return new Flush(below, mark);
    }

    /** Forgets the written commits that no later commit has replaced meanwhile. */
    synchronized void written(Flush flush) {
        flush.entries().forEach(unwritten::remove);
    }

    /** Lays the group's commits not yet in the registry over {@code fromRegistry} (a deletion removes). */
    synchronized void overlay(String group, Map<TopicPartition, OffsetRegistry.Committed> fromRegistry, List<TopicPartition> asked) {
        unwritten.forEach((key, entry) -> {
            if (key.group().equals(group) && (asked == null || asked.contains(key.partition()))) {
                if (entry.committed() == null) {
                    fromRegistry.remove(key.partition());
                } else {
                    fromRegistry.put(key.partition(), entry.committed());
                }
            }
        });
    }

    /** The partitions the group has commits of that the registry does not hold yet. */
    synchronized List<TopicPartition> unwrittenPartitions(String group) {
        List<TopicPartition> partitions = new ArrayList<>();
        unwritten.keySet().forEach(key -> {
            if (key.group().equals(group)) {
                partitions.add(key.partition());
            }
        });
        return partitions;
    }

    synchronized int unwrittenCount() {
        return unwritten.size();
    }
}
