package io.millrace.consumer;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.protocol.message.ListOffsetsRequest;
import io.millrace.consumer.internals.ConsumerRegistration;
import io.millrace.consumer.internals.GroupRegistry;
import io.millrace.consumer.internals.KafkaGroupClient;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import java.util.HashMap;
import java.util.Optional;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Looks at and moves a consumer group's offsets from outside the group: the groups of the offset
 * registry in ZooKeeper, of both kinds (the ZooKeeper group consumer's, and Kafka-protocol groups
 * coordinated by the brokers, whose members come from their coordinator's DescribeGroups), each
 * partition's committed offset, log end offset, lag and owner, and resetting a group's offsets of a
 * topic to the earliest, the latest or the first offset at a time. A reset or a deletion is refused
 * while the group has live members of either kind (they would overwrite it with their next commit),
 * as Kafka's tool does. Needs {@code zookeeper.connect}; finds the brokers through
 * {@code bootstrap.servers} or the broker registry. Thread-safe.
 */
public final class GroupOffsets implements AutoCloseable {

    /** One partition of a group, as {@link #describe} sees it; -1 where there is no committed offset. */
    public record PartitionLag(String topic, int partition, long committedOffset, long logEndOffset, String owner) {

        /** Records not yet consumed; -1 when nothing is committed. */
        public long lag() {
            return committedOffset < 0 ? -1 : Math.max(0, logEndOffset - committedOffset);
        }
    }

    private final CuratorFramework curator;
    private final NetworkClient client;
    private final Metadata metadata;
    private final PartitionReader reader;
    private final KafkaGroupClient kafkaGroups;

    public GroupOffsets(ConsumerConfig config) {
        String zookeeper = config.getString(CommonClientConfigs.ZOOKEEPER_CONNECT_CONFIG);
        if (zookeeper == null || zookeeper.isEmpty()) {
            throw new io.millrace.common.config.ConfigException(CommonClientConfigs.ZOOKEEPER_CONNECT_CONFIG
                + " is required to look at consumer groups");
        }
        int timeoutMs = config.getInt(ConsumerConfig.ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG);
        this.curator = CuratorFrameworkFactory.newClient(zookeeper,
            config.getInt(ConsumerConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG), timeoutMs, new ExponentialBackoffRetry(100, 3));
        curator.start();
        try {
            if (!curator.blockUntilConnected(timeoutMs, TimeUnit.MILLISECONDS)) {
                curator.close();
                throw new io.millrace.common.errors.TimeoutException("No connection to ZooKeeper at " + zookeeper);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            curator.close();
            throw new io.millrace.common.errors.TimeoutException("Interrupted while connecting to ZooKeeper");
        }
        this.client = new NetworkClient(CommonClientConfigs.networkOptions(config, "millrace-consumer-groups"));
        this.metadata = new Metadata(client, CommonClientConfigs.bootstrap(config),
            config.getLong(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG), config.getLong(CommonClientConfigs.METADATA_MAX_AGE_MS_CONFIG));
        this.reader = new PartitionReader(config, client, metadata);
        this.kafkaGroups = new KafkaGroupClient(client, metadata, config.getInt(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG));
    }

    public List<String> groups() {
        return GroupRegistry.groups(curator);
    }

    /** The live members of a group, by consumer id. */
    public Set<String> members(String group) {
        return new GroupRegistry(curator, group).members().keySet();
    }

    /**
     * The group as a group of Kafka's protocol: described by its coordinator while it has members of
     * that protocol, Empty when it has had some (or committed through a broker) and has none now;
     * empty for a group of the ZooKeeper group consumer.
     */
    public Optional<KafkaGroupDescription> kafkaGroup(String group) {
        GroupRegistry registry = new GroupRegistry(curator, group);
        if (registry.hasKafkaMembers()) {
            return Optional.of(kafkaGroups.describe(group));
        }
        return registry.isKafkaGroup() ? Optional.of(new KafkaGroupDescription(group, "Empty", "", -1, List.of()))
            : Optional.empty();
    }

    /**
     * Every partition of every topic the group has committed offsets for or its members subscribe to
     * by name (a ZooKeeper group) or are assigned (a Kafka-protocol group, from {@code kafkaGroup}).
     */
    public List<PartitionLag> describe(String group, Optional<KafkaGroupDescription> kafkaGroup) {
        GroupRegistry registry = new GroupRegistry(curator, group);
        Set<String> topics = new TreeSet<>(registry.topicsWithOffsets());
        for (ConsumerRegistration member : registry.members().values()) {
            if (!member.whiteList()) {
                topics.addAll(member.subscription().keySet());
            }
        }
        Map<TopicPartition, String> kafkaOwners = new HashMap<>();
        kafkaGroup.ifPresent(g -> g.members().forEach(m -> m.assignment().forEach(tp -> {
            kafkaOwners.put(tp, m.owner());
            topics.add(tp.topic());
        })));
        List<PartitionLag> rows = new ArrayList<>();
        for (String topic : topics) {
            List<TopicPartition> partitions = partitionsOf(topic);
            Map<TopicPartition, Long> ends = reader.offsets(partitions, ListOffsetsRequest.LATEST_TIMESTAMP);
            for (TopicPartition tp : partitions) {
                String owner = kafkaOwners.containsKey(tp) ? kafkaOwners.get(tp) : registry.owner(tp);
                rows.add(new PartitionLag(topic, tp.partition(), registry.committedOffset(tp).orElse(-1), ends.get(tp), owner));
            }
        }
        return rows;
    }

    /** As {@link #describe(String, Optional)}, looking the group up as Kafka's first. */
    public List<PartitionLag> describe(String group) {
        return describe(group, kafkaGroup(group));
    }

    /**
     * The offsets a reset of {@code topic} would write: for {@code timestamp} a time in ms, or
     * {@link ListOffsetsRequest#EARLIEST_TIMESTAMP} / {@link ListOffsetsRequest#LATEST_TIMESTAMP}. A
     * time later than every record of a partition gives its log end offset.
     */
    public Map<TopicPartition, Long> planReset(String topic, long timestamp) {
        List<TopicPartition> partitions = partitionsOf(topic);
        Map<TopicPartition, Long> plan = new TreeMap<>(reader.offsets(partitions, timestamp));
        if (timestamp >= 0 && plan.containsValue(-1L)) {
            Map<TopicPartition, Long> ends = reader.offsets(partitions, ListOffsetsRequest.LATEST_TIMESTAMP);
            plan.replaceAll((tp, offset) -> offset < 0 ? ends.get(tp) : offset);
        }
        return plan;
    }

    /**
     * Writes {@code offsets} to the group's offset registry.
     *
     * @throws IllegalStateException when the group has live members
     */
    public void executeReset(String group, Map<TopicPartition, Long> offsets) {
        GroupRegistry registry = new GroupRegistry(curator, group);
        Set<String> members = registry.members().keySet();
        if (!members.isEmpty()) {
            throw new IllegalStateException("Group " + group + " has live members " + members
                + "; stop them before resetting its offsets");
        }
        refuseKafkaMembers(registry, group, "resetting its offsets");
        offsets.forEach(registry::commit);
    }

    /**
     * Removes a group and its committed offsets from ZooKeeper.
     *
     * @throws IllegalStateException when the group has live members
     */
    public void deleteGroup(String group) {
        GroupRegistry registry = new GroupRegistry(curator, group);
        if (!registry.members().isEmpty()) {
            throw new IllegalStateException("Group " + group + " has live members " + registry.members().keySet());
        }
        refuseKafkaMembers(registry, group, "deleting it");
        registry.deleteGroup();
    }

    /**
     * Refuses while the group has Kafka-protocol members: their coordinator's marker is there and
     * the coordinator names members (a marker outlives the last member by a moment).
     */
    private void refuseKafkaMembers(GroupRegistry registry, String group, String what) {
        if (registry.hasKafkaMembers() && !kafkaGroups.describe(group).members().isEmpty()) {
            throw new IllegalStateException("Group " + group + " has live members of Kafka's group protocol; stop them "
                + "before " + what);
        }
    }

    private List<TopicPartition> partitionsOf(String topic) {
        int count = reader.partitionCount(topic);
        List<TopicPartition> partitions = new ArrayList<>();
        for (int p = 0; p < count; p++) {
            partitions.add(new TopicPartition(topic, p));
        }
        return partitions;
    }

    @Override
    public void close() {
        reader.close();
        metadata.close();
        client.close();
        curator.close();
    }
}
