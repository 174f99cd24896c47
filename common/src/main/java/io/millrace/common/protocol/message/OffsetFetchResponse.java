package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * OffsetFetch response (api key 9).
 *
 * <pre>
 * OffsetFetchResponse v1-7 => throttle_time_ms [topics] error_code TAG_BUFFER
 * OffsetFetchResponse v8+  => throttle_time_ms [groups] TAG_BUFFER
 *   throttle_time_ms => INT32   (v3+, default 0)
 *   topics => name [partitions] TAG_BUFFER
 *     name => STRING
 *     partitions => partition_index committed_offset committed_leader_epoch metadata error_code TAG_BUFFER
 *       partition_index        => INT32
 *       committed_offset       => INT64             (-1 when nothing is committed)
 *       committed_leader_epoch => INT32             (v5+, default -1)
 *       metadata               => NULLABLE_STRING
 *       error_code             => INT16
 *   error_code => INT16   (v2+, default 0: the group's error)
 *   groups => group_id [topics] error_code TAG_BUFFER   (v8+, one per group asked)
 * </pre>
 *
 * Version 2 adds the group-level error code, version 3 the throttle time. Version 4 has the same
 * layout, version 5 adds the leader epoch, version 6 is flexible, version 7 has the same layout.
 * Version 8 answers a batch of groups, in place of the single group's topics and error (which it
 * leaves at their defaults). Version 9 has the same layout.
 */
public record OffsetFetchResponse(int throttleTimeMs, List<Topic> topics, short errorCode, List<Group> groups)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.OFFSET_FETCH;

    /** One topic's committed offsets. */
    public record Topic(String name, List<Partition> partitions) {

        public Topic {
            partitions = List.copyOf(partitions);
        }

        private static Topic read(ProtocolReader reader, short version) {
            String name = reader.readString();
            List<Partition> partitions = reader.readArray(r -> Partition.read(r, version), 15);
            reader.readTaggedFields();
            return new Topic(name, partitions);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w, version));
            writer.writeTaggedFields();
        }
    }

    /** One partition's committed offset, or an error. */
    public record Partition(int partitionIndex, long committedOffset, int committedLeaderEpoch, String metadata,
                            short errorCode) {

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static Partition read(ProtocolReader reader, short version) {
            int partitionIndex = reader.readInt32();
            long committedOffset = reader.readInt64();
            int leaderEpoch = version >= 5 ? reader.readInt32() : -1;
            Partition partition = new Partition(partitionIndex, committedOffset, leaderEpoch, reader.readNullableString(),
                reader.readInt16());
            reader.readTaggedFields();
            return partition;
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeInt32(partitionIndex);
            writer.writeInt64(committedOffset);
            if (version >= 5) {
                writer.writeInt32(committedLeaderEpoch);
            }
            writer.writeNullableString(metadata);
            writer.writeInt16(errorCode);
            writer.writeTaggedFields();
        }
    }

    /** One group's answer in a batched response (v8+). */
    public record Group(String groupId, List<Topic> topics, short errorCode) {

        public Group {
            topics = List.copyOf(topics);
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static Group read(ProtocolReader reader, short version) {
            String groupId = reader.readString();
            List<Topic> topics = reader.readArray(r -> Topic.read(r, version), 3);
            Group group = new Group(groupId, topics, reader.readInt16());
            reader.readTaggedFields();
            return group;
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(groupId);
            writer.writeArray(topics, (w, t) -> t.write(w, version));
            writer.writeInt16(errorCode);
            writer.writeTaggedFields();
        }
    }

    public OffsetFetchResponse {
        topics = List.copyOf(topics);
        groups = List.copyOf(groups);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static OffsetFetchResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = version >= 3 ? reader.readInt32() : 0;
        List<Topic> topics = List.of();
        short errorCode = 0;
        List<Group> groups = List.of();
        if (version < OffsetFetchRequest.FIRST_BATCHED_VERSION) {
            topics = reader.readArray(r -> Topic.read(r, version), 3);
            errorCode = version >= 2 ? reader.readInt16() : 0;
        } else {
            groups = reader.readArray(r -> Group.read(r, version), 5);
        }
        reader.readTaggedFields();
        return new OffsetFetchResponse(throttleTimeMs, topics, errorCode, groups);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 3) {
            writer.writeInt32(throttleTimeMs);
        }
        if (version < OffsetFetchRequest.FIRST_BATCHED_VERSION) {
            writer.writeArray(topics, (w, t) -> t.write(w, version));
            if (version >= 2) {
                writer.writeInt16(errorCode);
            }
        } else {
            writer.writeArray(groups, (w, g) -> g.write(w, version));
        }
        writer.writeTaggedFields();
    }
}
