package io.millrace.broker.group;

import io.millrace.common.TopicPartition;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Spreads the partitions evenly over the members that may take them and moves as few as it can:
 * each member keeps what it had while that stays within one partition of balance, the partitions
 * left go one by one to the least loaded member subscribed to their topic, and then partitions move
 * from the most to the least loaded member that may take them until no such move narrows the gap.
 * With every member subscribed to the same topics, the counts differ by one at most.
 */
final class UniformAssignor implements ServerAssignor {

    static final String NAME = "uniform";

    private static final Comparator<TopicPartition> ORDER =
        Comparator.comparing(TopicPartition::topic).thenComparingInt(TopicPartition::partition);

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Map<String, Set<TopicPartition>> assign(Map<String, Set<String>> subscriptions, Map<String, Integer> partitionCounts,
                                                   Map<String, Set<TopicPartition>> current) {
        Map<String, Set<TopicPartition>> result = new TreeMap<>();
        subscriptions.keySet().forEach(m -> result.put(m, new HashSet<>()));
        List<TopicPartition> all = new ArrayList<>();
        new TreeMap<>(partitionCounts).forEach((topic, count) -> {
            for (int p = 0; p < count; p++) {
                all.add(new TopicPartition(topic, p));
            }
        });
        int quota = subscriptions.isEmpty() ? 0 : (all.size() + subscriptions.size() - 1) / subscriptions.size();
        Set<TopicPartition> placed = new HashSet<>();
        for (Map.Entry<String, Set<TopicPartition>> kept : new TreeMap<>(current).entrySet()) {
            Set<String> topics = subscriptions.get(kept.getKey());
            if (topics == null) {
                continue;
            }
            kept.getValue().stream().sorted(ORDER)
                .filter(tp -> topics.contains(tp.topic()) && tp.partition() < partitionCounts.getOrDefault(tp.topic(), 0))
                .filter(tp -> !placed.contains(tp))
                .limit(quota)
                .forEach(tp -> {
                    result.get(kept.getKey()).add(tp);
                    placed.add(tp);
                });
        }
        for (TopicPartition tp : all) {
            if (!placed.contains(tp)) {
                leastLoaded(result, subscriptions, tp.topic(), null).ifPresent(m -> result.get(m).add(tp));
            }
        }
        balance(result, subscriptions);
        return result;
    }

    /** Moves partitions from fuller to emptier members subscribed to their topic while that narrows a gap of two or more. */
    private static void balance(Map<String, Set<TopicPartition>> result, Map<String, Set<String>> subscriptions) {
        boolean moved = true;
        while (moved) {
            moved = false;
            List<String> fullest = result.keySet().stream()
                .sorted(Comparator.comparingInt((String m) -> result.get(m).size()).reversed().thenComparing(m -> m)).toList();
            for (String from : fullest) {
                for (TopicPartition tp : result.get(from).stream().sorted(ORDER).toList()) {
                    String to = leastLoaded(result, subscriptions, tp.topic(), from).orElse(null);
                    if (to != null && result.get(to).size() + 1 < result.get(from).size()) {
                        result.get(from).remove(tp);
                        result.get(to).add(tp);
                        moved = true;
                        break;
                    }
                }
                if (moved) {
                    break;
                }
            }
        }
    }

    private static java.util.Optional<String> leastLoaded(Map<String, Set<TopicPartition>> result,
                                                          Map<String, Set<String>> subscriptions, String topic, String except) {
        return result.keySet().stream()
            .filter(m -> !m.equals(except) && subscriptions.get(m).contains(topic))
            .min(Comparator.comparingInt((String m) -> result.get(m).size()).thenComparing(m -> m));
    }
}
