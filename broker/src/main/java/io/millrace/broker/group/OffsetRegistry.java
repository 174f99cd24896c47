package io.millrace.broker.group;

import io.millrace.common.TopicPartition;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Committed offsets of Kafka-protocol groups, kept in the paper's offset registry that Millrace's
 * ZooKeeper group consumer and {@code bin/millrace consumer-groups} use:
 * <pre>
 * /millrace/consumers/&lt;group&gt;/offsets/&lt;topic&gt;/&lt;partition&gt;          the next offset to consume, decimal text
 * /millrace/consumers/&lt;group&gt;/offset-metadata/&lt;topic&gt;/&lt;partition&gt;  "&lt;offset&gt;\n&lt;metadata&gt;", only for a
 *                                                                 commit with non-empty metadata
 * </pre>
 * The offset node stays plain decimal text so both kinds of group read each other's commits. The
 * metadata node names the offset it was committed with and counts only while the offset node still
 * holds that offset, so a later commit without metadata needs no second write to clear it. A
 * group partition's latest commit is written there from the offsets topic, many in one ZooKeeper
 * transaction ({@link JournalWrites}).
 * Calls block on ZooKeeper: the coordinator makes them off the request threads.
 */
final class OffsetRegistry {

    private static final String CONSUMERS = "/millrace/consumers";

    /** A committed offset and its metadata ("" when none). */
    record Committed(long offset, String metadata) {
    }

    /** One commit request's offsets of one group. */
    record Write(String group, Map<TopicPartition, Committed> offsets) {
        /** The transaction operations it takes. */
        int operationCount() {
            int ops = 0;
            for (Committed c : offsets.values()) {
                ops += c.metadata().isEmpty() ? 1 : 2;
            }
            return ops;
        }

        /** An upper estimate of its size in a transaction request: paths, data and each op's framing. */
        int byteCount() {
            int bytes = 0;
            for (Map.Entry<TopicPartition, Committed> e : offsets.entrySet()) {
                int path = offsetPath(group, e.getKey()).length() * 3 + 64;
                bytes += path + 20;
                if (!e.getValue().metadata().isEmpty()) {
                    bytes += path + 40 + e.getValue().metadata().length() * 3;
                }
            }
            return bytes;
        }
    }

    private final CuratorFramework curator;

    OffsetRegistry(CuratorFramework curator) {
        this.curator = curator;
    }

    static String offsetPath(String group, TopicPartition tp) {
        return CONSUMERS + "/" + group + "/offsets/" + tp.topic() + "/" + tp.partition();
    }

    static String metadataPath(String group, TopicPartition tp) {
        return CONSUMERS + "/" + group + "/offset-metadata/" + tp.topic() + "/" + tp.partition();
    }

    /** Writes {@code offsets} of {@code group} in one transaction, creating missing nodes first. */
    void commit(String group, Map<TopicPartition, Committed> offsets) throws Exception {
        commitAll(List.of(new Write(group, offsets)));
    }

    /**
     * Writes {@code writes} in one transaction, in their order (a later write of a partition wins),
     * creating missing nodes first. All or none are written.
     */
    void commitAll(List<Write> writes) throws Exception {
        commitAll(writes, List.of());
    }

    /**
     * As {@link #commitAll(List)}, with {@code also} in the same transaction: a fenced write of the
     * offsets topic's mark ({@link JournalMarks}) fails the whole transaction.
     */
    void commitAll(List<Write> writes, List<CuratorOp> also) throws Exception {
        List<CuratorOp> ops = new ArrayList<>();
        for (Write w : writes) {
            addOperations(ops, w.group(), w.offsets());
        }
        ops.addAll(also);
        if (ops.isEmpty()) {
            return;
        }
        try {
            curator.transaction().forOperations(ops);
        } catch (KeeperException.NoNodeException missing) {
            for (Write w : writes) {
                for (Map.Entry<TopicPartition, Committed> e : w.offsets().entrySet()) {
                    createIfMissing(offsetPath(w.group(), e.getKey()));
                    if (!e.getValue().metadata().isEmpty()) {
                        createIfMissing(metadataPath(w.group(), e.getKey()));
                    }
                }
            }
            curator.transaction().forOperations(ops);
        }
    }

    private void addOperations(List<CuratorOp> ops, String group, Map<TopicPartition, Committed> offsets) throws Exception {
        for (Map.Entry<TopicPartition, Committed> e : offsets.entrySet()) {
            Committed c = e.getValue();
            ops.add(curator.transactionOp().setData().forPath(offsetPath(group, e.getKey()), utf8(Long.toString(c.offset()))));
            if (!c.metadata().isEmpty()) {
                ops.add(curator.transactionOp().setData().forPath(metadataPath(group, e.getKey()),
                    utf8(c.offset() + "\n" + c.metadata())));
            }
        }
    }

    private void createIfMissing(String path) throws Exception {
        try {
            curator.create().creatingParentsIfNeeded().forPath(path, utf8("-1"));
        } catch (KeeperException.NodeExistsException raced) {
            // written by the transaction
        }
    }

    /** The committed offsets of {@code partitions}; those without one are left out. */
    Map<TopicPartition, Committed> fetch(String group, List<TopicPartition> partitions) throws Exception {
        Map<TopicPartition, Committed> result = new LinkedHashMap<>();
        for (TopicPartition tp : partitions) {
            String text = read(offsetPath(group, tp));
            if (text == null) {
                continue;
            }
            long offset;
            try {
                offset = Long.parseLong(text.trim());
            } catch (NumberFormatException e) {
                continue; // not an offset: as if never committed
            }
            if (offset >= 0) {
                result.put(tp, new Committed(offset, metadataAt(group, tp, offset)));
            }
        }
        return result;
    }

    /** Every partition {@code group} has an offset node for. */
    List<TopicPartition> partitionsOf(String group) throws Exception {
        List<TopicPartition> partitions = new ArrayList<>();
        String base = CONSUMERS + "/" + group + "/offsets";
        for (String topic : children(base)) {
            for (String partition : children(base + "/" + topic)) {
                try {
                    partitions.add(new TopicPartition(topic, Integer.parseInt(partition)));
                } catch (NumberFormatException e) {
                    // not a partition node
                }
            }
        }
        return partitions;
    }

    /**
     * When each partition's offset was last committed: its node's modification time, in the
     * ZooKeeper server's wall-clock milliseconds (what offset retention counts from).
     */
    Map<TopicPartition, Long> commitTimes(String group) throws Exception {
        Map<TopicPartition, Long> times = new LinkedHashMap<>();
        for (TopicPartition tp : partitionsOf(group)) {
            Stat stat = curator.checkExists().forPath(offsetPath(group, tp));
            if (stat != null) {
                times.put(tp, stat.getMtime());
            }
        }
        return times;
    }

    /** Deletes the committed offsets (and metadata) of {@code partitions}, and topic nodes left empty. */
    void delete(String group, Collection<TopicPartition> partitions) throws Exception {
        Set<String> topics = new TreeSet<>();
        for (TopicPartition tp : partitions) {
            deleteIfPresent(offsetPath(group, tp));
            deleteIfPresent(metadataPath(group, tp));
            topics.add(tp.topic());
        }
        for (String topic : topics) {
            for (String parent : List.of("/offsets/", "/offset-metadata/")) {
                try {
                    curator.delete().forPath(CONSUMERS + "/" + group + parent + topic);
                } catch (KeeperException.NoNodeException | KeeperException.NotEmptyException kept) {
                    // absent, or other partitions still committed
                }
            }
        }
    }

    private void deleteIfPresent(String path) throws Exception {
        try {
            curator.delete().forPath(path);
        } catch (KeeperException.NoNodeException absent) {
            // never committed
        }
    }

    private String metadataAt(String group, TopicPartition tp, long offset) throws Exception {
        String text = read(metadataPath(group, tp));
        if (text == null) {
            return "";
        }
        int newline = text.indexOf('\n');
        return newline > 0 && text.substring(0, newline).equals(Long.toString(offset)) ? text.substring(newline + 1) : "";
    }

    private List<String> children(String path) throws Exception {
        try {
            List<String> children = new ArrayList<>(curator.getChildren().forPath(path));
            children.sort(null);
            return children;
        } catch (KeeperException.NoNodeException absent) {
            return List.of();
        }
    }

    private String read(String path) throws Exception {
        try {
            return new String(curator.getData().forPath(path), StandardCharsets.UTF_8);
        } catch (KeeperException.NoNodeException absent) {
            return null;
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
