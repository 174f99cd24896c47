package io.millrace.audit;

import io.millrace.common.TopicPartition;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.GroupConsumer;
import io.millrace.consumer.RebalanceListener;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The consumer tier of one Millrace group consumer, shared by {@link AuditingConsumer} and
 * {@link AuditingPollingConsumer}: with {@code audit.enabled=true} the records the application has
 * finished are counted, under the tier of the consumer's {@code group.id}, and held
 * ({@link UncommittedCounts}) until a commit covers them. The group consumer says only that a commit
 * succeeded, not what it wrote, so each commit goes through here: mark what was counted, commit, then
 * release up to the marks. A record is counted after its offset moved, so a commit that starts after
 * the mark covers it. The commits of a rebalance or a close are followed through the
 * {@link RebalanceListener}: what was counted of the partitions given up is released if they were
 * committed and dropped if not (their next owner counts those records). For the same reason the
 * group consumer's own auto-commit is replaced by one that commits through here, on its schedule.
 *
 * <p>With auditing off, it only passes commits and the application's rebalance listener on.
 * Thread-safe.
 */
final class ConsumerAudit implements RebalanceListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ConsumerAudit.class);
    private static final long COMMIT_WAIT_SECONDS = 30;

    private final AuditPublisher publisher;   // null: audit.enabled=false
    private final UncommittedCounts counts;   // null: audit.enabled=false
    private final long autoCommitMs;          // 0: no auto-commit of the audit's own
    private volatile ScheduledExecutorService scheduler;
    private volatile GroupConsumer<byte[], byte[]> group;
    private volatile RebalanceListener listener = RebalanceListener.NONE;
    private boolean releasing;   // what beforeCommit decided, for afterRelease: the rebalance lock orders them

    ConsumerAudit(ConsumerConfig config) {
        if (!AuditConfig.enabled(config.originals())) {
            publisher = null;
            counts = null;
            autoCommitMs = 0;
            return;
        }
        String group = config.groupId();
        publisher = new AuditPublisher(AuditSettings.of(config.originals(), group, group));
        counts = new UncommittedCounts(publisher.counter());
        autoCommitMs = config.getBoolean(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG)
            ? config.getInt(ConsumerConfig.AUTO_COMMIT_INTERVAL_MS_CONFIG) : 0;
    }

    /** The group consumer's settings: with auditing on, its own auto-commit off, since commits must pass here. */
    ConsumerConfig groupConfig(ConsumerConfig config) {
        if (publisher == null) {
            return config;
        }
        Map<String, Object> settings = new HashMap<>(config.originals());
        settings.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return new ConsumerConfig(settings);
    }

    /** Follows {@code consumer}'s commits from now on, and starts publishing and the auto-commit. */
    void attach(GroupConsumer<byte[], byte[]> consumer) {
        group = consumer;
        if (publisher == null) {
            return;
        }
        consumer.setRebalanceListener(this);
        publisher.start();
        if (autoCommitMs > 0) {
            scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, consumer.consumerId() + "-audited-commit");
                thread.setDaemon(true);
                return thread;
            });
            scheduler.scheduleWithFixedDelay(this::autoCommit, autoCommitMs, autoCommitMs, TimeUnit.MILLISECONDS);
        }
    }

    /** The application finished this record (its offset has moved): it waits for a commit. */
    void processed(ConsumerRecord<byte[], byte[]> record) {
        if (counts != null) {
            counts.count(record.topicPartition(), record.offset(), record.timestamp(), RecordDecoder.bytes(record));
        }
    }

    /** This record could not be decoded and was skipped (its offset has moved): it waits for a commit. */
    void malformed(ConsumerRecord<byte[], byte[]> record) {
        if (counts != null) {
            counts.countMalformed(record.topicPartition(), record.offset());
        }
    }

    /** Commits the processed offsets, then releases what was counted before the commit started. */
    void commit() {
        if (counts == null) {
            group.commit();
            return;
        }
        Map<TopicPartition, Long> marks = counts.seal();
        group.commit();   // on failure nothing is released: those records wait for the next commit
        Set<TopicPartition> owned = group.ownedPartitions();
        marks.forEach((tp, mark) -> {
            if (owned.contains(tp)) {
                counts.release(tp, mark);
            }
        });
        counts.retain(owned);   // a partition lost without its commit: its next owner counts those records
    }

    private void autoCommit() {
        try {
            commit();
        } catch (RuntimeException e) {
            LOG.warn("Consumer {}: auto-commit failed: {}", group.consumerId(), e.toString());
        }
    }

    void setListener(RebalanceListener applications) {
        if (publisher == null) {
            group.setRebalanceListener(applications);
        } else {
            listener = applications;
        }
    }

    @Override
    public boolean beforeCommit(Set<TopicPartition> partitions) {
        releasing = listener.beforeCommit(partitions);
        return releasing;
    }

    @Override
    public void afterRelease(Set<TopicPartition> partitions) {
        try {
            if (releasing) {
                counts.releaseAll(partitions);
            } else {
                counts.discard(partitions);
            }
            releasing = false;
        } finally {
            listener.afterRelease(partitions);
        }
    }

    /** The publisher, null with auditing off. */
    AuditPublisher publisher() {
        return publisher;
    }

    /** How many finished records wait for a commit. */
    long heldRecords() {
        return counts == null ? 0 : counts.heldRecords();
    }

    /**
     * Stops the auto-commit, closes the group consumer (whose last commit releases what it covers), then
     * publishes every window and waits up to audit.close.timeout.ms for the acknowledgements.
     */
    @Override
    public void close() {
        ScheduledExecutorService committer = scheduler;
        GroupConsumer<byte[], byte[]> consumer = group;
        try {
            if (committer != null) {
                stop(committer);
            }
            if (consumer != null) {
                consumer.close();
            }
        } finally {
            if (publisher != null) {
                publisher.close();
            }
        }
    }

    /** Lets a commit under way finish, rather than interrupt it halfway through its ZooKeeper writes. */
    private static void stop(ScheduledExecutorService committer) {
        committer.shutdown();
        try {
            if (!committer.awaitTermination(COMMIT_WAIT_SECONDS, TimeUnit.SECONDS)) {
                committer.shutdownNow();
            }
        } catch (InterruptedException e) {
            committer.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
