package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * OffsetForLeaderEpoch request (api key 23): the end offset of a leader epoch in each partition,
 * which a consumer (after a leader change) or a follower uses to detect a truncated log.
 *
 * <pre>
 * OffsetForLeaderEpochRequest => replica_id [topics] TAG_BUFFER
 *   replica_id => INT32      (v3+; -1 for consumers, -2 when absent: a "debug" client)
 *   topics => topic [partitions] TAG_BUFFER
 *     topic => STRING
 *     partitions => partition current_leader_epoch leader_epoch TAG_BUFFER
 *       partition            => INT32
 *       current_leader_epoch => INT32   the leader epoch the client knows, for fencing; -1 for none
 *       leader_epoch         => INT32   the epoch whose end offset is asked for
 * </pre>
 *
 * Version 2 (the oldest supported, as in Kafka 4) has the current leader epoch. Version 3 adds
 * the replica id. Version 4 is flexible.
 */
public record OffsetForLeaderEpochRequest(int replicaId, List<OffsetForLeaderTopic> topics) implements ApiMessage {

    /** The replica id of a consumer. */
    public static final int CONSUMER_REPLICA_ID = -1;
    /** The replica id versions before 3 stand for. */
    public static final int DEBUGGING_REPLICA_ID = -2;

    private static final ApiKey API = ApiKey.OFFSET_FOR_LEADER_EPOCH;

    public record OffsetForLeaderTopic(String topic, List<OffsetForLeaderPartition> partitions) {

        public OffsetForLeaderTopic {
            partitions = List.copyOf(partitions);
        }

        private static OffsetForLeaderTopic read(ProtocolReader reader) {
            OffsetForLeaderTopic topic = new OffsetForLeaderTopic(reader.readString(),
                reader.readArray(OffsetForLeaderPartition::read, 12));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(topic);
            writer.writeArray(partitions, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    public record OffsetForLeaderPartition(int partition, int currentLeaderEpoch, int leaderEpoch) {

        private static OffsetForLeaderPartition read(ProtocolReader reader) {
            OffsetForLeaderPartition partition = new OffsetForLeaderPartition(reader.readInt32(), reader.readInt32(),
                reader.readInt32());
            reader.readTaggedFields();
            return partition;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(partition);
            writer.writeInt32(currentLeaderEpoch);
            writer.writeInt32(leaderEpoch);
            writer.writeTaggedFields();
        }
    }

    public OffsetForLeaderEpochRequest {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static OffsetForLeaderEpochRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int replicaId = version >= 3 ? reader.readInt32() : DEBUGGING_REPLICA_ID;
        List<OffsetForLeaderTopic> topics = reader.readArray(OffsetForLeaderTopic::read, 3);
        reader.readTaggedFields();
        return new OffsetForLeaderEpochRequest(replicaId, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 3) {
            writer.writeInt32(replicaId);
        }
        writer.writeArray(topics, (w, t) -> t.write(w));
        writer.writeTaggedFields();
    }
}
