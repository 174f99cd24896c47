package io.millrace.broker.group;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.function.Function;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registry thread, as a partition of the offsets topic is loaded: its groups' stored generations
 * become the groups here, members and all, who reach this coordinator with the ids and epochs or
 * generation they had and so go on without a rebalance, as on Kafka. Groups of the partition still
 * in memory from an earlier time this broker led it are dropped: the log says what they are now.
 */
final class GroupTakeover {

    private static final Logger LOG = LoggerFactory.getLogger(GroupTakeover.class);

    private final Map<String, ClassicGroup> groups;
    private final ConsumerGroups consumerGroups;
    private final Function<String, ClassicGroup> newGroup;
    private final IntSupplier offsetsPartitions;
    private final LongSupplier clock;

    GroupTakeover(Map<String, ClassicGroup> groups, ConsumerGroups consumerGroups, Function<String, ClassicGroup> newGroup,
                  IntSupplier offsetsPartitions, LongSupplier clock) {
        this.groups = groups;
        this.consumerGroups = consumerGroups;
        this.newGroup = newGroup;
        this.offsetsPartitions = offsetsPartitions;
        this.clock = clock;
    }

    void restore(int partition, Map<String, JournalPartition.StoredGroup> stored) {
        long now = clock.getAsLong();
        int partitions = offsetsPartitions.getAsInt();
        for (ClassicGroup stale : groups.values()) {
            if (OffsetsTopic.partitionFor(stale.groupId(), partitions) == partition) {
                stale.unload();
                groups.remove(stale.groupId(), stale);
            }
        }
        consumerGroups.dropPartition(partition, partitions);
        stored.forEach((groupId, generation) -> {
            try {
                GroupMetadataRecord record = GroupMetadataRecord.decode(ByteBuffer.wrap(generation.value()));
                if (record.members().isEmpty()) {
                    return;
                }
                if (ConsumerGroupSnapshot.isConsumerProtocol(record)) {
                    consumerGroups.restore(groupId, record);
                    LOG.debug("Took over consumer group {} at epoch {} with {} members", groupId, record.generation(),
                        record.members().size());
                    return;
                }
                ClassicGroup group = newGroup.apply(groupId);
                group.restore(record, now);
                groups.put(groupId, group);
                LOG.debug("Took over group {} at generation {} with {} members", groupId, record.generation(),
                    record.members().size());
            } catch (IllegalArgumentException e) {
                LOG.warn("Group {}'s generation in {}-{} at offset {} is unreadable; its members join again: {}", groupId,
                    OffsetsTopic.NAME, partition, generation.logOffset(), e.getMessage());
            }
        });
    }
}
