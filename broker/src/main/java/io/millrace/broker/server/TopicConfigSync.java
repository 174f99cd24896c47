package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataListener;
import io.millrace.broker.log.LogManager;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a topic's changed configuration to the logs this broker hosts, live: retention, segment
 * size and age, message size, flush policy and the rest of {@code LogConfig.TOPIC_CONFIG} take
 * effect on the next append, roll, flush check or retention pass, without a restart. The change
 * arrives as a new {@code /millrace/config/topics/<topic>} in this broker's metadata, whoever wrote
 * it. A topic deleted here loses its overrides, so that a topic created again under its name starts
 * from the broker's defaults. (A partition gained later gets the topic's overrides from
 * {@link LogAssignments}.)
 *
 * <p>Runs on the metadata notification thread, in snapshot order.
 */
final class TopicConfigSync implements MetadataListener {

    private static final Logger LOG = LoggerFactory.getLogger(TopicConfigSync.class);

    private final int brokerId;
    private final LogManager logs;

    TopicConfigSync(int brokerId, LogManager logs) {
        this.brokerId = brokerId;
        this.logs = logs;
    }

    @Override
    public void onMetadataChange(ClusterSnapshot previous, ClusterSnapshot current) {
        if (previous == null) {
            return;
        }
        Set<String> topics = new TreeSet<>(previous.topics());
        topics.addAll(current.topics());
        for (String topic : topics) {
            boolean hostedBefore = hosts(previous, topic);
            boolean hostedNow = hosts(current, topic);
            Map<String, String> config = current.topicConfig(topic);
            if (hostedNow && !config.equals(previous.topicConfig(topic))) {
                apply(topic, config);
            } else if (hostedBefore && !current.hasTopic(topic)) {
                apply(topic, Map.of());
            }
        }
    }

    private boolean hosts(ClusterSnapshot snapshot, String topic) {
        return snapshot.topic(topic).map(t -> t.hasReplicaOn(brokerId)).orElse(false);
    }

    private void apply(String topic, Map<String, String> config) {
        try {
            logs.setTopicConfig(topic, config);
            LOG.info("Broker {} applied topic {}'s configuration {} to its logs", brokerId, topic, config);
        } catch (RuntimeException e) {
            // A bad znode written by hand or by an older writer: keep the settings in force.
            LOG.error("Broker {} could not apply topic {}'s configuration {}; its logs keep their settings", brokerId,
                topic, config, e);
        }
    }
}
