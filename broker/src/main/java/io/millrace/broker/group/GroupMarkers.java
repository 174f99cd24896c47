package io.millrace.broker.group;

import io.millrace.common.utils.Time;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps each group's {@code kafka-members} marker (see {@link GroupNodes}) in line with its
 * members: written before a first member joins, deleted once the group is idle again, when its
 * {@code kafka-group} node records since when it has been empty (what offset retention counts
 * from). Runs on the coordinator's registry thread only; {@link #view()} may be read anywhere.
 */
final class GroupMarkers {

    private static final Logger LOG = LoggerFactory.getLogger(GroupMarkers.class);

    private final GroupNodes nodes;
    private final Time time;
    /** Group → the protocol type of its members; "" while it only has members waiting to join. */
    private final Map<String, String> marked = new HashMap<>();
    private volatile Map<String, String> view = Map.of();

    GroupMarkers(GroupNodes nodes, Time time) {
        this.nodes = nodes;
        this.time = time;
    }

    /** The groups marked and their members' protocol type, as of the last change. */
    Map<String, String> view() {
        return view;
    }

    /**
     * Marks {@code group} as having Kafka-protocol members, then looks for ZooKeeper group consumers
     * in it: null when there are none, else why the group is not open to Kafka's protocol.
     */
    String claim(String group) throws Exception {
        nodes.createMarker(group);
        marked.putIfAbsent(group, "");
        publish();
        List<String> zookeeperMembers = nodes.zookeeperMembers(group);
        if (zookeeperMembers.isEmpty()) {
            return null;
        }
        return "Group " + group + " has members of Millrace's ZooKeeper group consumer " + zookeeperMembers
            + "; a group id is of one kind at a time: stop them or use another group id";
    }

    /**
     * Marks every group with members ({@code live}: group → protocol type) and unmarks the others;
     * with {@code verify}, also writes again markers that went with an expired session.
     */
    void reconcile(Map<String, String> live, Predicate<String> coordinatedHere, boolean verify) {
        for (Map.Entry<String, String> e : live.entrySet()) {
            try {
                mark(e.getKey(), e.getValue(), verify);
            } catch (Exception failure) {
                LOG.warn("Could not mark group {} as having Kafka-protocol members", e.getKey(), failure);
            }
        }
        for (String group : Set.copyOf(marked.keySet())) {
            if (!live.containsKey(group)) {
                try {
                    unmark(group, coordinatedHere.test(group));
                } catch (Exception failure) {
                    LOG.warn("Could not unmark group {}", group, failure);
                }
            }
        }
        publish();
    }

    private void mark(String group, String protocolType, boolean verify) throws Exception {
        String known = marked.get(group);
        if (known == null || (verify && !nodes.holdsMarker(group))) {
            nodes.createMarker(group);
        }
        if (!protocolType.isEmpty() && (known == null || known.isEmpty())) {
            nodes.writeKafkaGroup(group, new GroupNodes.KafkaGroup(protocolType, -1));
        }
        marked.put(group, protocolType.isEmpty() && known != null ? known : protocolType);
    }

    private void unmark(String group, boolean coordinatedHere) throws Exception {
        String protocolType = marked.remove(group);
        if (coordinatedHere && protocolType != null && !protocolType.isEmpty()) {
            // the group lost its last member here (not moved away): retention counts from now
            nodes.updateKafkaGroup(group, new GroupNodes.KafkaGroup(protocolType, time.milliseconds()));
        }
        nodes.deleteMarker(group);
    }

    private void publish() {
        view = Map.copyOf(marked);
    }
}
