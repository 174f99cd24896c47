package io.millrace.broker.cluster;

import io.millrace.common.TopicPartition;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Every znode path Millrace uses, and the one place that builds them. All paths live under
 * {@value #ROOT} (relative to the chroot of {@code zookeeper.connect}, if it has one).
 *
 * <pre>
 * /millrace                                      persistent  (empty)
 *   brokers/ids/&lt;id&gt;                           EPHEMERAL   each broker, for itself
 *       {"version":1,"host":"h","port":9092,"rack":null,"timestamp":1700000000000}
 *   controller/                                  persistent  Curator LeaderLatch path
 *     _c_&lt;uuid&gt;-latch-&lt;seq&gt;                 EPHEMERAL_SEQUENTIAL, data = broker id ("2");
 *                                                the lowest sequence is the controller
 *   topics/&lt;topic&gt;                             persistent  the controller
 *       {"version":1,"partitions":{"0":[2,0],"1":[0,1]}}   partition -&gt; replica ids, the first
 *       being the preferred leader; the form before replication, "0":2, reads as [2]
 *     partitions/&lt;p&gt;/state                    persistent  the controller; the leader changes "isr"
 *       {"version":1,"leader":2,"leader_epoch":0,"isr":[2,0]}   leader -1: offline. Absent for a
 *       topic written before replication: its one broker leads in epoch 0
 *   config/topics/&lt;topic&gt;                      persistent  the controller at creation; any broker on a change
 *       {"version":1,"config":{"retention.ms":"86400000"}}
 *   admin/create-topics/&lt;topic&gt;               EPHEMERAL   the requesting broker
 *       {"version":1,"partitions":3,"config":{...}}
 *       + "error","message" once the controller rejects it
 *   admin/controlled-shutdown/&lt;id&gt;             EPHEMERAL   a broker shutting down
 *       {"version":1}; the controller moves that broker's leaderships away, then deletes it
 *   admin/delete-topics/&lt;topic&gt;               EPHEMERAL   the requesting broker
 *       {"version":1}  + "error","message" once the controller rejects it
 *   admin/create-partitions/&lt;topic&gt;           EPHEMERAL   the requesting broker
 *       {"version":1,"partitions":6,"assignment":[[2,0],[0,1]]}   the new partition count; the
 *       replicas of each new partition, or [] for the controller to choose; + "error","message" as above
 *   latest_producer_id_block                     persistent  any broker taking a block of producer ids
 *       {"version":1,"broker":2,"block_start":"1000","block_end":"1999"}
 *       the last block handed out; the next starts at block_end + 1. Created by the first
 *       allocation, rewritten only with a setData at the version read, never deleted
 * </pre>
 *
 * <p>Every broker creates the persistent directories at startup; they are never deleted. Admin
 * requests are ephemeral so that a request whose requester has gone (crashed, or timed out and
 * withdrew it) never outlives the interest in it. The controller deletes a request it has carried
 * out; it leaves a rejected one in place, marked with the error, for its requester to read and
 * delete.
 */
public final class ClusterPaths {

    public static final String ROOT = "/millrace";
    public static final String BROKER_IDS = ROOT + "/brokers/ids";
    public static final String CONTROLLER = ROOT + "/controller";
    public static final String TOPICS = ROOT + "/topics";
    public static final String TOPIC_CONFIGS = ROOT + "/config/topics";
    public static final String CREATE_TOPIC_REQUESTS = ROOT + "/admin/create-topics";
    public static final String DELETE_TOPIC_REQUESTS = ROOT + "/admin/delete-topics";
    public static final String CREATE_PARTITIONS_REQUESTS = ROOT + "/admin/create-partitions";
    /** A broker shutting down asks the controller to move its leaderships away (Kafka's controlled shutdown). */
    public static final String CONTROLLED_SHUTDOWN_REQUESTS = ROOT + "/admin/controlled-shutdown";
    /** The last block of producer ids handed out (Kafka's {@code /latest_producer_id_block}). */
    public static final String PRODUCER_ID_BLOCK = ROOT + "/latest_producer_id_block";

    /** The persistent directories, parents first; every broker makes sure they exist at startup. */
    public static final List<String> DIRECTORIES = List.of(
        ROOT, ROOT + "/brokers", BROKER_IDS, CONTROLLER, TOPICS, ROOT + "/config", TOPIC_CONFIGS,
        ROOT + "/admin", CREATE_TOPIC_REQUESTS, DELETE_TOPIC_REQUESTS, CREATE_PARTITIONS_REQUESTS,
        CONTROLLED_SHUTDOWN_REQUESTS);

    /**
     * The subtrees every broker caches: all that {@link ClusterView} reads, and nothing of the
     * consumers' registries ({@code /millrace/consumers}), which change with every commit.
     */
    public static final List<String> METADATA_SUBTREES = List.of(
        ROOT + "/brokers", CONTROLLER, TOPICS, ROOT + "/config", ROOT + "/admin");

    private static final String PARTITIONS = "/partitions";
    private static final String STATE = "/state";

    /** Curator's LeaderLatch names its nodes {@code <protection prefix>latch-<sequence>}. */
    private static final String LATCH_MARKER = "latch-";

    private ClusterPaths() {
    }

    public static String broker(int brokerId) {
        return BROKER_IDS + "/" + brokerId;
    }

    public static String topic(String topic) {
        return TOPICS + "/" + topic;
    }

    /** The parent of a topic's partition directories. */
    public static String partitions(String topic) {
        return topic(topic) + PARTITIONS;
    }

    public static String partition(String topic, int partition) {
        return partitions(topic) + "/" + partition;
    }

    /** A partition's leader, leader epoch and in-sync replicas. */
    public static String partitionState(String topic, int partition) {
        return partition(topic, partition) + STATE;
    }

    public static String controlledShutdownRequest(int brokerId) {
        return CONTROLLED_SHUTDOWN_REQUESTS + "/" + brokerId;
    }

    /** The partition whose state znode {@code path} is, or empty when it is not one. */
    static Optional<TopicPartition> partitionOfState(String path) {
        if (!path.startsWith(TOPICS + "/") || !path.endsWith(STATE)) {
            return Optional.empty();
        }
        String[] parts = path.substring(TOPICS.length() + 1, path.length() - STATE.length()).split("/", -1);
        if (parts.length != 3 || !("/" + parts[1]).equals(PARTITIONS) || parts[0].isEmpty()) {
            return Optional.empty();
        }
        try {
            int partition = Integer.parseInt(parts[2]);
            return partition < 0 ? Optional.empty() : Optional.of(new TopicPartition(parts[0], partition));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    public static String topicConfig(String topic) {
        return TOPIC_CONFIGS + "/" + topic;
    }

    public static String createTopicRequest(String topic) {
        return CREATE_TOPIC_REQUESTS + "/" + topic;
    }

    public static String deleteTopicRequest(String topic) {
        return DELETE_TOPIC_REQUESTS + "/" + topic;
    }

    public static String createPartitionsRequest(String topic) {
        return CREATE_PARTITIONS_REQUESTS + "/" + topic;
    }

    /** The last segment of {@code path} when its parent is exactly {@code directory}, else null. */
    static String childOf(String directory, String path) {
        if (path.length() > directory.length() + 1 && path.startsWith(directory) && path.charAt(directory.length()) == '/') {
            String name = path.substring(directory.length() + 1);
            return name.indexOf('/') < 0 ? name : null;
        }
        return null;
    }

    /** The broker id in a registration path, or empty when the path is not one. */
    static OptionalInt brokerIdOf(String path) {
        String name = childOf(BROKER_IDS, path);
        if (name == null) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(name));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** The sequence number of a LeaderLatch node name, or -1 when the name is not one; orders candidates. */
    static long latchSequence(String nodeName) {
        int at = nodeName.lastIndexOf(LATCH_MARKER);
        if (at < 0) {
            return -1;
        }
        try {
            return Long.parseLong(nodeName.substring(at + LATCH_MARKER.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
