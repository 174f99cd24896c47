package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import java.util.Set;

/**
 * Told when a {@link GroupConsumer} is about to commit the offsets of partitions it gives up (a
 * rebalance, or {@link GroupConsumer#close()}), and when it has given them up. An application that
 * hands records on asynchronously, such as a mirror whose producer acknowledges later, finishes that
 * work in {@link #beforeCommit}: the consumer commits every record the application moved past, so
 * those records must be done by then. Both run on the consumer's rebalance thread; a slow listener
 * delays the rebalance, and the application's own {@link GroupConsumer#commit()} waits meanwhile.
 */
public interface RebalanceListener {

    /** Does nothing: records count as done once the application moved past them. */
    RebalanceListener NONE = new RebalanceListener() {
        @Override
        public boolean beforeCommit(Set<TopicPartition> partitions) {
            return true;
        }
    };

    /**
     * The partitions are about to be committed and given up. Returns whether to commit: false gives
     * them up without committing (their next owner starts from the last commit; duplicates, no loss),
     * for work that failed.
     */
    boolean beforeCommit(Set<TopicPartition> partitions);

    /** The partitions are given up (always called after {@link #beforeCommit}, committed or not). */
    default void afterRelease(Set<TopicPartition> partitions) {
    }
}
