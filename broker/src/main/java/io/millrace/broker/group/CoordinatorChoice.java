package io.millrace.broker.group;

import io.millrace.broker.cluster.BrokerInfo;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Which live broker coordinates a group: the group id's hash over the live brokers sorted by id.
 * Every broker sees the same registrations in ZooKeeper, so all agree once their caches have caught
 * up; a group moves only when the set of live brokers changes.
 */
public final class CoordinatorChoice {

    private CoordinatorChoice() {
    }

    /** The coordinator of {@code groupId} among {@code liveBrokers}, empty when there is none. */
    public static Optional<BrokerInfo> coordinatorOf(String groupId, List<BrokerInfo> liveBrokers) {
        if (liveBrokers.isEmpty()) {
            return Optional.empty();
        }
        List<BrokerInfo> sorted = liveBrokers.stream().sorted(Comparator.comparingInt(BrokerInfo::id)).toList();
        return Optional.of(sorted.get(Math.floorMod(groupId.hashCode(), sorted.size())));
    }
}
