package io.millrace.consumer.internals;

import io.millrace.common.TopicPartition;
import io.millrace.consumer.KafkaProtocolGroupException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * The paper's three registries of one consumer group in ZooKeeper (layout in {@link GroupPaths}):
 * consumers register themselves (ephemeral), claim partitions (ephemeral owner nodes) and commit
 * offsets (persistent). Ephemeral nodes vanish with the session that made them, which is how a
 * crashed consumer's partitions become free. Every method is one or a few blocking ZooKeeper calls
 * and throws {@link GroupRegistryException} when ZooKeeper fails. Thread-safe (Curator is).
 */
public final class GroupRegistry {

    private final CuratorFramework curator;
    private final GroupPaths paths;

    public GroupRegistry(CuratorFramework curator, String group) {
        this.curator = curator;
        this.paths = new GroupPaths(group);
    }

    public GroupPaths paths() {
        return paths;
    }

    /**
     * Writes this consumer's registration, replacing one a previous session of ours left behind. The
     * registration is written before the group is checked for Kafka-protocol members, as their
     * coordinator marks the group before it checks for registrations, so of two racing joins at
     * least one sees the other.
     *
     * @throws KafkaProtocolGroupException when the group has members of Kafka's protocol
     */
    public void register(ConsumerRegistration registration) {
        String path = paths.id(registration.consumerId());
        call("register " + path, () -> {
            try {
                curator.delete().forPath(path);
            } catch (KeeperException.NoNodeException absent) {
                // the usual case: nothing left from an earlier session
            }
            return curator.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
                .forPath(path, registration.toJson());
        });
        try {
            checkNoKafkaMembers();
        } catch (KafkaProtocolGroupException e) {
            unregister(registration.consumerId());
            throw e;
        }
    }

    /** Whether the group has members of Kafka's protocol now (their coordinator's marker is there). */
    public boolean hasKafkaMembers() {
        return dataOrNull(paths.kafkaMembers()) != null;
    }

    /** Whether the group has been a Kafka-protocol group (its coordinator keeps a kafka-group node). */
    public boolean isKafkaGroup() {
        return dataOrNull(paths.group() + "/kafka-group") != null;
    }

    /** @throws KafkaProtocolGroupException when the group has members of Kafka's protocol */
    public void checkNoKafkaMembers() {
        byte[] marker = dataOrNull(paths.kafkaMembers());
        if (marker != null) {
            String group = paths.group().substring(GroupPaths.CONSUMERS.length() + 1);
            throw new KafkaProtocolGroupException("Group " + group + " has members of Kafka's group protocol, "
                + "coordinated by a broker (" + paths.kafkaMembers() + ": " + new String(marker, StandardCharsets.UTF_8)
                + "); a group id is of one kind at a time: stop those consumers or use another group id");
        }
    }

    /** Whether this session's registration of {@code consumerId} is in place (it is gone after a lost session). */
    public boolean isRegistered(String consumerId) {
        return call("check " + paths.id(consumerId), () -> {
            Stat stat = curator.checkExists().forPath(paths.id(consumerId));
            return stat != null && stat.getEphemeralOwner() == curator.getZookeeperClient().getZooKeeper().getSessionId();
        });
    }

    public void unregister(String consumerId) {
        deleteIfPresent(paths.id(consumerId));
    }

    /** The live members, by consumer id in sorted order. */
    public Map<String, ConsumerRegistration> members() {
        Map<String, ConsumerRegistration> members = new TreeMap<>();
        for (String id : children(paths.ids())) {
            byte[] data = dataOrNull(paths.id(id));
            if (data != null) {
                members.put(id, ConsumerRegistration.parse(id, data));
            }
        }
        return members;
    }

    /**
     * Takes ownership of a partition for {@code threadId}; false when another thread owns it. Owning
     * it already (a retry after a lost answer) counts as success.
     */
    public boolean claim(TopicPartition tp, String threadId) {
        String path = paths.owner(tp.topic(), tp.partition());
        return call("claim " + path, () -> {
            try {
                curator.create().creatingParentContainersIfNeeded().withMode(CreateMode.EPHEMERAL)
                    .forPath(path, threadId.getBytes(StandardCharsets.UTF_8));
                return true;
            } catch (KeeperException.NodeExistsException taken) {
                return threadId.equals(owner(tp));
            }
        });
    }

    /** Gives a partition up if {@code threadId} owns it; another owner's node is left alone. */
    public void release(TopicPartition tp, String threadId) {
        String path = paths.owner(tp.topic(), tp.partition());
        call("release " + path, () -> {
            Stat stat = new Stat();
            byte[] data;
            try {
                data = curator.getData().storingStatIn(stat).forPath(path);
            } catch (KeeperException.NoNodeException gone) {
                return null;
            }
            if (threadId.equals(new String(data, StandardCharsets.UTF_8))) {
                try {
                    curator.delete().withVersion(stat.getVersion()).forPath(path);
                } catch (KeeperException.NoNodeException | KeeperException.BadVersionException changed) {
                    // gone already, or someone else's now
                }
            }
            return null;
        });
    }

    /** The thread owning a partition, or null. */
    public String owner(TopicPartition tp) {
        byte[] data = dataOrNull(paths.owner(tp.topic(), tp.partition()));
        return data == null ? null : new String(data, StandardCharsets.UTF_8);
    }

    public OptionalLong committedOffset(TopicPartition tp) {
        byte[] data = dataOrNull(paths.offset(tp.topic(), tp.partition()));
        return data == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(new String(data, StandardCharsets.UTF_8).trim()));
    }

    /**
     * The ZooKeeper session this registry's calls run on now. Ownership taken on it lasts exactly as
     * long as it does: {@link #commitAsOwner} commits through it, never through a later session.
     */
    public ZooKeeper session() {
        return call("get the ZooKeeper session", () -> curator.getZookeeperClient().getZooKeeper());
    }

    /**
     * Records {@code offset} only while {@code owner}, the session that claimed the partition, still
     * owns it: one ZooKeeper transaction checks the owner node and writes the offset, sent through that
     * session's own handle. Once the server has expired the session the transaction fails, even before
     * this client learns of it and even after it reconnected with a new session, so a consumer that
     * lost a partition can never overwrite the offset its new owner commits.
     *
     * @throws GroupRegistryException when the partition is no longer owned through {@code owner}
     */
    public void commitAsOwner(ZooKeeper owner, TopicPartition tp, long offset) {
        String offsetPath = paths.offset(tp.topic(), tp.partition());
        String ownerPath = paths.owner(tp.topic(), tp.partition());
        byte[] data = Long.toString(offset).getBytes(StandardCharsets.UTF_8);
        call("commit " + offsetPath + " as the owner of " + tp, () -> {
            if (curator.checkExists().forPath(offsetPath) == null) {
                try {
                    curator.create().creatingParentsIfNeeded().forPath(offsetPath, Long.toString(-1).getBytes(StandardCharsets.UTF_8));
                } catch (KeeperException.NodeExistsException raced) {
                    // created meanwhile: the transaction below writes it
                }
            }
            try {
                Stat stat = owner.exists(ownerPath, false);
                if (stat == null || stat.getEphemeralOwner() != owner.getSessionId()) {
                    throw KeeperException.create(KeeperException.Code.NONODE, ownerPath);
                }
                owner.multi(List.of(Op.check(ownerPath, stat.getVersion()), Op.setData(offsetPath, data, -1)));
            } catch (KeeperException.SessionExpiredException | KeeperException.NoNodeException
                     | KeeperException.BadVersionException lost) {
                throw new GroupRegistryException("Not committing offset " + offset + " of " + tp + ": this consumer no "
                    + "longer owns it (" + lost.code() + "); its new owner commits from here on", lost);
            }
            return null;
        });
    }

    /** Records {@code offset}, the next offset to consume, in the offset registry (tools that reset a stopped group). */
    public void commit(TopicPartition tp, long offset) {
        String path = paths.offset(tp.topic(), tp.partition());
        byte[] data = Long.toString(offset).getBytes(StandardCharsets.UTF_8);
        call("commit " + path, () -> {
            try {
                return curator.setData().forPath(path, data);
            } catch (KeeperException.NoNodeException absent) {
                return curator.create().creatingParentsIfNeeded().forPath(path, data);
            }
        });
    }

    /** The committed offsets of one topic, by partition. */
    public Map<Integer, Long> committedOffsets(String topic) {
        Map<Integer, Long> offsets = new TreeMap<>();
        for (String partition : children(paths.offsetsOf(topic))) {
            committedOffset(new TopicPartition(topic, Integer.parseInt(partition))).ifPresent(o -> offsets.put(Integer.parseInt(partition), o));
        }
        return offsets;
    }

    /** The topics the group has committed offsets for. */
    public List<String> topicsWithOffsets() {
        return children(paths.offsets());
    }

    /** Removes the group's whole tree, offsets included (a throw-away group leaving nothing behind). */
    public void deleteGroup() {
        call("delete " + paths.group(), () -> {
            try {
                curator.delete().deletingChildrenIfNeeded().forPath(paths.group());
            } catch (KeeperException.NoNodeException absent) {
                // nothing to delete
            }
            return null;
        });
    }

    /** Every group that has a node under /millrace/consumers. */
    public static List<String> groups(CuratorFramework curator) {
        return new GroupRegistry(curator, "-").children(GroupPaths.CONSUMERS);
    }

    private List<String> children(String path) {
        return call("list " + path, () -> {
            try {
                List<String> children = new ArrayList<>(curator.getChildren().forPath(path));
                children.sort(null);
                return children;
            } catch (KeeperException.NoNodeException absent) {
                return List.of();
            }
        });
    }

    private byte[] dataOrNull(String path) {
        return call("read " + path, () -> {
            try {
                return curator.getData().forPath(path);
            } catch (KeeperException.NoNodeException absent) {
                return null;
            }
        });
    }

    private void deleteIfPresent(String path) {
        call("delete " + path, () -> {
            try {
                curator.delete().forPath(path);
            } catch (KeeperException.NoNodeException absent) {
                // already gone
            }
            return null;
        });
    }

    private interface ZkCall<T> {
        T run() throws Exception;
    }

    private static <T> T call(String what, ZkCall<T> call) {
        try {
            return call.run();
        } catch (RuntimeException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GroupRegistryException("Interrupted: " + what, e);
        } catch (Exception e) {
            throw new GroupRegistryException("ZooKeeper failed to " + what + ": " + e.getMessage(), e);
        }
    }
}
