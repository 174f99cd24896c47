package io.millrace.broker.cluster;

import io.millrace.common.TopicPartition;
import java.util.SortedSet;

/**
 * Told which partitions one broker gains and loses, for the log layer to create and delete local
 * logs. The first call after {@link MetadataCache#addAssignmentListener} reports every partition
 * already assigned. A topic deleted and created again under the same name is reported as
 * unassigned, then assigned: its old data must not be kept. Calls come in order on the cache's
 * notification thread; unassignments of a change come before its assignments.
 */
public interface PartitionAssignmentListener {

    void onPartitionsAssigned(SortedSet<TopicPartition> partitions, ClusterSnapshot snapshot);

    void onPartitionsUnassigned(SortedSet<TopicPartition> partitions, ClusterSnapshot snapshot);
}
