package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;

/**
 * ConsumerGroupHeartbeat request (api key 68), the consumer group protocol of KIP-848: a member
 * joins (epoch 0), stays, reports the partitions it owns and leaves (epoch -1, or -2 for a static
 * member that will come back) with this one request; the coordinator assigns the partitions.
 *
 * <pre>
 * ConsumerGroupHeartbeatRequest => group_id member_id member_epoch instance_id rack_id rebalance_timeout_ms
 *                                  [subscribed_topic_names] subscribed_topic_regex server_assignor [topic_partitions] TAG_BUFFER
 *   group_id               => COMPACT_STRING
 *   member_id              => COMPACT_STRING            (v0: empty on the first join; v1: made by the client)
 *   member_epoch           => INT32
 *   instance_id            => COMPACT_NULLABLE_STRING   (null when unchanged)
 *   rack_id                => COMPACT_NULLABLE_STRING   (null when unchanged)
 *   rebalance_timeout_ms   => INT32                     (-1 when unchanged)
 *   subscribed_topic_names => COMPACT_NULLABLE_ARRAY(COMPACT_STRING)   (null when unchanged)
 *   subscribed_topic_regex => COMPACT_NULLABLE_STRING   (v1+)
 *   server_assignor        => COMPACT_NULLABLE_STRING   (null when unchanged)
 *   topic_partitions       => COMPACT_NULLABLE_ARRAY(topic_id UUID, partitions COMPACT_ARRAY(INT32))   (owned; null when unchanged)
 * </pre>
 *
 * Every version is flexible.
 */
public record ConsumerGroupHeartbeatRequest(String groupId, String memberId, int memberEpoch, String instanceId,
                                            String rackId, int rebalanceTimeoutMs, List<String> subscribedTopicNames,
                                            String subscribedTopicRegex, String serverAssignor,
                                            List<TopicPartitions> topicPartitions) implements ApiMessage {

    private static final ApiKey API = ApiKey.CONSUMER_GROUP_HEARTBEAT;

    /** The epoch a member joins with. */
    public static final int JOIN_EPOCH = 0;
    /** The epoch a member leaves with. */
    public static final int LEAVE_EPOCH = -1;
    /** The epoch a static member leaves with when it means to come back. */
    public static final int STATIC_LEAVE_EPOCH = -2;

    /** Partitions of one topic, named by its id. */
    public record TopicPartitions(UUID topicId, List<Integer> partitions) {

        static TopicPartitions read(ProtocolReader reader) {
            UUID topicId = reader.readUuid();
            List<Integer> partitions = reader.readInt32Array();
            reader.readTaggedFields();
            return new TopicPartitions(topicId, partitions);
        }

        void write(ProtocolWriter writer) {
            writer.writeUuid(topicId);
            writer.writeInt32Array(partitions);
            writer.writeTaggedFields();
        }
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ConsumerGroupHeartbeatRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, true);
        String groupId = reader.readString();
        String memberId = reader.readString();
        int memberEpoch = reader.readInt32();
        String instanceId = reader.readNullableString();
        String rackId = reader.readNullableString();
        int rebalanceTimeoutMs = reader.readInt32();
        List<String> topicNames = reader.readNullableArray(ProtocolReader::readString, 1);
        String regex = version >= 1 ? reader.readNullableString() : null;
        String serverAssignor = reader.readNullableString();
        List<TopicPartitions> owned = reader.readNullableArray(TopicPartitions::read, 18);
        reader.readTaggedFields();
        return new ConsumerGroupHeartbeatRequest(groupId, memberId, memberEpoch, instanceId, rackId, rebalanceTimeoutMs,
            topicNames, regex, serverAssignor, owned);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeString(groupId);
        writer.writeString(memberId);
        writer.writeInt32(memberEpoch);
        writer.writeNullableString(instanceId);
        writer.writeNullableString(rackId);
        writer.writeInt32(rebalanceTimeoutMs);
        writer.writeNullableArray(subscribedTopicNames, ProtocolWriter::writeString);
        if (version >= 1) {
            writer.writeNullableString(subscribedTopicRegex);
        }
        writer.writeNullableString(serverAssignor);
        writer.writeNullableArray(topicPartitions, (w, tp) -> tp.write(w));
        writer.writeTaggedFields();
    }
}
