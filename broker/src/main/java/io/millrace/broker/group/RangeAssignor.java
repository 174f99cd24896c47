package io.millrace.broker.group;

import io.millrace.common.TopicPartition;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Per topic, the members subscribed to it in member id order get consecutive ranges of its partitions,
 * the first ones one more when they do not divide evenly: partition i of topics with the same
 * partition count goes to the same member, which keeps co-partitioned topics together.
 */
final class RangeAssignor implements ServerAssignor {

    static final String NAME = "range";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Set<TopicPartition>> assign(Map<String, Set<String>> subscriptions, Map<String, Integer> partitionCounts,
                                                   Map<String, Set<TopicPartition>> current) {
        Map<String, Set<TopicPartition>> result = new TreeMap<>();
        subscriptions.keySet().forEach(m -> result.put(m, new HashSet<>()));
        new TreeMap<>(partitionCounts).forEach((topic, count) -> {
            List<String> members = subscriptions.entrySet().stream().filter(e -> e.getValue().contains(topic))
                .map(Map.Entry::getKey).sorted().toList();
            if (members.isEmpty()) {
                return;
            }
            int share = count / members.size();
            int extra = count % members.size();
            int next = 0;
            for (int i = 0; i < members.size(); i++) {
                int take = share + (i < extra ? 1 : 0);
                for (int p = next; p < next + take; p++) {
                    result.get(members.get(i)).add(new TopicPartition(topic, p));
                }
                next += take;
            }
        });
        return result;
    }
}
