package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * OffsetCommit request (api key 8): a group member (or a tool, with generation -1) commits the
 * offsets it has consumed up to.
 *
 * <pre>
 * OffsetCommitRequest => group_id generation_id member_id retention_time_ms group_instance_id [topics] TAG_BUFFER
 *   group_id          => STRING
 *   generation_id     => INT32             (-1 for a commit from outside the group)
 *   member_id         => STRING
 *   retention_time_ms => INT64             (v2-4, default -1: the broker's retention)
 *   group_instance_id => NULLABLE_STRING   (v7+, default null)
 *   topics => name [partitions] TAG_BUFFER
 *     name => STRING
 *     partitions => partition_index committed_offset committed_leader_epoch committed_metadata TAG_BUFFER
 *       partition_index        => INT32
 *       committed_offset       => INT64
 *       committed_leader_epoch => INT32             (v6+, default -1)
 *       committed_metadata     => NULLABLE_STRING
 * </pre>
 *
 * Version 2 (the oldest Kafka 4 accepts) has the retention time. Versions 3 and 4 have the same
 * layout. Version 5 drops the retention time: the broker's offsets.retention.minutes applies. Version
 * 6 adds the leader epoch, version 7 the static member's instance id, version 8 is flexible.
 * Version 9 has the same layout (the generation may be a member epoch of the new group protocol).
 * Not supported: version 10, which names topics by id.
 */
public record OffsetCommitRequest(String groupId, int generationId, String memberId, long retentionTimeMs,
                                  String groupInstanceId, List<Topic> topics) implements ApiMessage {

    private static final ApiKey API = ApiKey.OFFSET_COMMIT;

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
            int leaderEpoch = version >= 6 ? reader.readInt32() : -1;
            Partition partition = new Partition(partitionIndex, committedOffset, leaderEpoch, reader.readNullableString());
            reader.readTaggedFields();
            return partition;
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeInt32(partitionIndex);
            writer.writeInt64(committedOffset);
            if (version >= 6) {
                writer.writeInt32(committedLeaderEpoch);
            }
            writer.writeNullableString(committedMetadata);
            writer.writeTaggedFields();
        }
    }

    public OffsetCommitRequest {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static OffsetCommitRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        String groupId = reader.readString();
        int generationId = reader.readInt32();
        String memberId = reader.readString();
        long retentionTimeMs = version <= 4 ? reader.readInt64() : -1L;
        String groupInstanceId = version >= 7 ? reader.readNullableString() : null;
        List<Topic> topics = reader.readArray(r -> Topic.read(r, version), 3);
        reader.readTaggedFields();
        return new OffsetCommitRequest(groupId, generationId, memberId, retentionTimeMs, groupInstanceId, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeString(groupId);
        writer.writeInt32(generationId);
        writer.writeString(memberId);
        if (version <= 4) {
            writer.writeInt64(retentionTimeMs);
        }
        if (version >= 7) {
            writer.writeNullableString(groupInstanceId);
        }
        writer.writeArray(topics, (w, t) -> t.write(w, version));
        writer.writeTaggedFields();
    }
}
