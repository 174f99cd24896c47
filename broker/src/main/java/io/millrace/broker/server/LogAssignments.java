package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.PartitionAssignmentListener;
import io.millrace.broker.log.Log;
import io.millrace.broker.log.LogManager;
import io.millrace.common.TopicPartition;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the local logs in step with the partitions assigned to this broker: creates the log of a
 * partition it gains, with the topic's config overrides, and deletes the log of one it loses (its
 * topic was deleted, or the partition moved to other brokers). The first report lists every
 * partition assigned; local logs not among them belong to topics deleted, or partitions moved, while
 * this broker was down and are deleted too.
 */
final class LogAssignments implements PartitionAssignmentListener {

    private static final Logger LOG = LoggerFactory.getLogger(LogAssignments.class);

    private final int brokerId;
    private final LogManager logs;
    private boolean first = true;

    LogAssignments(int brokerId, LogManager logs) {
        this.brokerId = brokerId;
        this.logs = logs;
    }

    @Override
    public void onPartitionsAssigned(SortedSet<TopicPartition> partitions, ClusterSnapshot snapshot) {
        if (first) {
            first = false;
            deleteUnassigned(snapshot.partitionsAssignedTo(brokerId));
        }
        for (TopicPartition tp : partitions) {
            try {
                applyTopicConfig(tp.topic(), snapshot.topicConfig(tp.topic()));
                logs.getOrCreateLog(tp.topic(), tp.partition());
            } catch (RuntimeException e) {
                LOG.error("Could not open the log of {}, assigned to this broker", tp, e);
            }
        }
    }

    @Override
    public void onPartitionsUnassigned(SortedSet<TopicPartition> partitions, ClusterSnapshot snapshot) {
        for (TopicPartition tp : partitions) {
            delete(tp);
        }
    }

    private void applyTopicConfig(String topic, Map<String, String> overrides) {
        if (!overrides.isEmpty()) {
            logs.setTopicConfig(topic, overrides);
        }
    }

    private void deleteUnassigned(Set<TopicPartition> assigned) {
        for (Log log : logs.allLogs()) {
            if (!assigned.contains(log.topicPartition())) {
                LOG.info("Deleting the log of {}: its topic was deleted, or moved, while this broker was away",
                    log.topicPartition());
                delete(log.topicPartition());
            }
        }
    }

    private void delete(TopicPartition tp) {
        try {
            logs.deleteLog(tp.topic(), tp.partition());
        } catch (RuntimeException e) {
            LOG.error("Could not delete the log of {}", tp, e);
        }
    }
}
