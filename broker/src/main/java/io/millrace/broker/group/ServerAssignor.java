package io.millrace.broker.group;

import io.millrace.common.TopicPartition;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Computes a consumer-protocol group's target assignment on the coordinator (KIP-848), by the name
 * a member asks for in {@code group.remote.assignor}: {@code uniform} (the default) or {@code range}.
 */
interface ServerAssignor {

    /** The assignor a group uses when none of its members names one. */
    String DEFAULT = UniformAssignor.NAME;

    /** Every assignor the coordinator offers, by name. */
    static Optional<ServerAssignor> named(String name) {
        return switch (name) {
            case UniformAssignor.NAME -> Optional.of(new UniformAssignor());
            case RangeAssignor.NAME -> Optional.of(new RangeAssignor());
            default -> Optional.empty();
        };
    }

    /** The names {@link #named} knows. */
    List<String> NAMES = List.of(UniformAssignor.NAME, RangeAssignor.NAME);

    String name();

    /**
     * Each member's partitions: every partition of a subscribed topic goes to exactly one member
     * subscribed to it.
     *
     * @param subscriptions each member's subscribed topics that exist, by member id
     * @param partitionCounts each of those topics' partition count
     * @param current the previous target, which an assignor may keep where it stays balanced
     */
    Map<String, Set<TopicPartition>> assign(Map<String, Set<String>> subscriptions, Map<String, Integer> partitionCounts,
                                            Map<String, Set<TopicPartition>> current);
}
