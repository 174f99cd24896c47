package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * TxnOffsetCommit request (api key 28): a transactional producer commits a consumer group's offsets
 * to the group's coordinator as part of its transaction; they become visible when the transaction
 * commits.
 *
 * <pre>
 * TxnOffsetCommitRequest => transactional_id group_id producer_id producer_epoch generation_id member_id
 *                           group_instance_id [topics] TAG_BUFFER
 *   transactional_id  => STRING
 *   group_id          => STRING
 *   producer_id       => INT64
 *   producer_epoch    => INT16
 *   generation_id     => INT32             (v3+, default -1)
 *   member_id         => STRING            (v3+, default "")
 *   group_instance_id => NULLABLE_STRING   (v3+, default null)
 *   topics => name [partitions] TAG_BUFFER
 *     name => STRING
 *     partitions => partition_index committed_offset committed_leader_epoch committed_metadata TAG_BUFFER
 *       partition_index        => INT32
 *       committed_offset       => INT64
 *       committed_leader_epoch => INT32             (v2+, default -1)
 *       committed_metadata     => NULLABLE_STRING
 * </pre>
 *
 * Version 1 has the same layout as 0; version 2 adds the leader epoch; version 3 is flexible and
 * adds the member's generation, member id and instance id, so the coordinator can fence a zombie
 * member; version 4 lets it answer TRANSACTION_ABORTABLE. Not supported: version 5, which under
 * transaction protocol V2 also adds the group to the transaction; Kafka's Java client sends at most
 * version 4 unless the broker enables that protocol.
 */
public record TxnOffsetCommitRequest(String transactionalId, String groupId, long producerId, short producerEpoch,
                                     int generationId, String memberId, String groupInstanceId, List<Topic> topics)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.TXN_OFFSET_COMMIT;

    /** The first version with the committed leader epoch. */
    public static final short FIRST_LEADER_EPOCH_VERSION = 2;
    /** The first version with the member's generation, member id and instance id. */
    public static final short FIRST_MEMBER_VERSION = 3;

    /** The offsets committed for one topic. */
    public record Topic(String name, List<Partition> partitions) {

        public Topic {
            partitions = List.copyOf(partitions);
        }

        private static Topic read(ProtocolReader reader, short version) {
            String name = reader.readString();
            List<Partition> partitions = reader.readArray(r -> Partition.read(r, version), 13);
            reader.readTaggedFields();
            return new Topic(name, partitions);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w, version));
            writer.writeTaggedFields();
        }
    }

    /** One partition's committed offset, with the leader epoch of the record before it and free-form metadata. */
    public record Partition(int partitionIndex, long committedOffset, int committedLeaderEpoch, String committedMetadata) {

        private static Partition read(ProtocolReader reader, short version) {
            int partitionIndex = reader.readInt32();
            long committedOffset = reader.readInt64();
            int leaderEpoch = version >= FIRST_LEADER_EPOCH_VERSION ? reader.readInt32() : -1;
            String metadata = reader.readNullableString();
            reader.readTaggedFields();
            return new Partition(partitionIndex, committedOffset, leaderEpoch, metadata);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeInt32(partitionIndex);
            writer.writeInt64(committedOffset);
            if (version >= FIRST_LEADER_EPOCH_VERSION) {
                writer.writeInt32(committedLeaderEpoch);
            }
            writer.writeNullableString(committedMetadata);
            writer.writeTaggedFields();
        }
    }

    public TxnOffsetCommitRequest {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static TxnOffsetCommitRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        String transactionalId = reader.readString();
        String groupId = reader.readString();
        long producerId = reader.readInt64();
        short producerEpoch = reader.readInt16();
        int generationId = -1;
        String memberId = "";
        String groupInstanceId = null;
        if (version >= FIRST_MEMBER_VERSION) {
            generationId = reader.readInt32();
            memberId = reader.readString();
            groupInstanceId = reader.readNullableString();
        }
        List<Topic> topics = reader.readArray(r -> Topic.read(r, version), 3);
        reader.readTaggedFields();
        return new TxnOffsetCommitRequest(transactionalId, groupId, producerId, producerEpoch, generationId, memberId,
            groupInstanceId, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeString(transactionalId);
        writer.writeString(groupId);
        writer.writeInt64(producerId);
        writer.writeInt16(producerEpoch);
        if (version >= FIRST_MEMBER_VERSION) {
            writer.writeInt32(generationId);
            writer.writeString(memberId);
            writer.writeNullableString(groupInstanceId);
        }
        writer.writeArray(topics, (w, t) -> t.write(w, version));
        writer.writeTaggedFields();
    }
}
