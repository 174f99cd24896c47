package io.millrace.mirror;

import io.millrace.consumer.PartitionReader;
import java.util.HashMap;
import java.util.Map;

/**
 * Where one mirror stream sends each live topic's records: the offline topic's name, the counters of
 * the live topic, and the offline topic made ready (created with the live topic's partition count and
 * settings, or checked to have enough partitions) before the first record goes there. Worked out on a
 * topic's first record and looked up after that, since records come in runs of one partition. Mirror
 * thread only.
 */
final class Routes {

    /** One live topic's way out. */
    static final class Route {
        final String live;
        final String target;
        final MirrorCounters.TopicCounters counters;
        /** The live partition count the offline topic was last made ready for. */
        int partitionsEnsured;

        Route(String live, String target, MirrorCounters.TopicCounters counters) {
            this.live = live;
            this.target = target;
            this.counters = counters;
        }
    }

    private final String cluster;
    private final MirrorMakerConfig config;
    private final MirrorCounters counters;
    private final TargetTopics targets;
    private final PartitionReader sourceTopics;
    private final TopicSettings sourceSettings;
    private final Map<String, Route> routes = new HashMap<>();
    private Route last;

    Routes(String cluster, MirrorMakerConfig config, MirrorCounters counters, TargetTopics targets,
           PartitionReader sourceTopics, TopicSettings sourceSettings) {
        this.cluster = cluster;
        this.config = config;
        this.counters = counters;
        this.targets = targets;
        this.sourceTopics = sourceTopics;
        this.sourceSettings = sourceSettings;
    }

    /** The route of a record of {@code partition} of the live topic {@code live}, its offline topic ready. */
    Route of(String live, int partition) throws InterruptedException {
        Route route = last != null && last.live.equals(live) ? last : routes.get(live);
        if (route == null) {
            route = new Route(live, config.offlineTopic(cluster, live), counters.topic(cluster, live));
            routes.put(live, route);
        }
        last = route;
        if (partition >= route.partitionsEnsured) {   // first record, or the live topic grew
            int partitions = Math.max(sourceTopics.partitionCount(live), partition + 1);
            targets.ensure(route.target, partitions, () -> liveSettings(live));
            route.partitionsEnsured = partitions;
        }
        return route;
    }

    /**
     * Makes {@code topic}, which a message handler chose for a record of {@code route}'s live topic, ready
     * as that live topic's own offline topic would be.
     */
    void ensureOther(Route route, String topic) throws InterruptedException {
        if (!topic.equals(route.target)) {
            targets.ensure(topic, route.partitionsEnsured, () -> liveSettings(route.live));
        }
    }

    /** The settings an offline topic is created with: the live topic's own, when they are copied. */
    private Map<String, String> liveSettings(String live) throws InterruptedException {
        return config.syncTopicConfigs() ? sourceSettings.of(live) : Map.of();
    }
}
