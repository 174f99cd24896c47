package io.millrace.broker.group;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * How far the offset registry holds each partition of the offsets topic:
 * <pre>
 * /millrace/consumer-offsets-marks/&lt;partition&gt;   "&lt;topic id&gt; &lt;offset&gt;"
 * </pre>
 * Every commit whose record lies below the offset is in the registry, so a new leader replays only
 * the records from there. The topic id makes a mark of a deleted and recreated topic count as 0.
 * Each write expects the node's version the writer last saw, so only the current leader's land.
 */
final class JournalMarks {

    static final String ROOT = "/millrace/consumer-offsets-marks";

    /** A partition's mark and its node's version. */
    record Mark(long offset, int version) {
    }

    private final CuratorFramework curator;

    JournalMarks(CuratorFramework curator) {
        this.curator = curator;
    }

    static String path(int partition) {
        return ROOT + "/" + partition;
    }

    /** The partition's mark (0 when it has none, or one of another topic id), creating its node if missing. */
    Mark read(int partition, UUID topicId) throws Exception {
        String path = path(partition);
        Stat stat = new Stat();
        byte[] data;
        try {
            data = curator.getData().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException absent) {
            try {
                curator.create().creatingParentsIfNeeded().forPath(path, encode(topicId, 0));
            } catch (KeeperException.NodeExistsException raced) {
                // another leader made it; read theirs
            }
            data = curator.getData().storingStatIn(stat).forPath(path);
        }
        return new Mark(offsetOf(data, topicId), stat.getVersion());
    }

    /** The operation setting the mark, refused unless the node is still at {@code expectedVersion}. */
    CuratorOp write(int partition, UUID topicId, long offset, int expectedVersion) throws Exception {
        return curator.transactionOp().setData().withVersion(expectedVersion).forPath(path(partition), encode(topicId, offset));
    }

    private static long offsetOf(byte[] data, UUID topicId) {
        String[] parts = new String(data, StandardCharsets.UTF_8).trim().split(" ");
        if (parts.length != 2 || !parts[0].equals(topicId.toString())) {
            return 0;
        }
        try {
            return Math.max(0, Long.parseLong(parts[1]));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static byte[] encode(UUID topicId, long offset) {
        return (topicId + " " + offset).getBytes(StandardCharsets.UTF_8);
    }
}
