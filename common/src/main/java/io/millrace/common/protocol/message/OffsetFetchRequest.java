package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * OffsetFetch request (api key 9): the committed offsets of a group's partitions, or (v8+) of
 * several groups' partitions at once.
 *
 * <pre>
 * OffsetFetchRequest v1-7 => group_id [topics] require_stable TAG_BUFFER
 * OffsetFetchRequest v8+  => [groups] require_stable TAG_BUFFER
 *   group_id       => STRING
 *   topics         => NULLABLE [name [partition_indexes] TAG_BUFFER]   (null from v2: every partition)
 *     name              => STRING
 *     partition_indexes => INT32
 *   require_stable => BOOLEAN   (v7+, default false)
 *   groups => group_id member_id member_epoch [topics] TAG_BUFFER   (v8+)
 *     member_id    => NULLABLE_STRING   (v9+, default null)
 *     member_epoch => INT32             (v9+, default -1)
 * </pre>
 *
 * Version 1 (the oldest Kafka 4 accepts) needs a topic list. Version 2 lets it be null for all of
 * the group's partitions. Versions 3 to 5 have the same layout. Version 6 is flexible, version 7
 * adds require_stable (wait for pending transactional commits). Version 8 asks for a batch of
 * groups, each with its own topics; version 9 adds the member id and epoch of the new group
 * protocol. Not supported: version 10, which names topics by id.
 *
 * <p>A version carries either {@link #groupId()} and {@link #topics()} or {@link #groups()}; the
 * others are left at Kafka's defaults ("" and empty lists) and are not written.
 */
public record OffsetFetchRequest(String groupId, List<Topic> topics, boolean requireStable, List<Group> groups)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.OFFSET_FETCH;

    /** The first version that asks for several groups. */
    public static final short FIRST_BATCHED_VERSION = 8;

    /** One topic's partitions whose offsets are asked for. */
    public record Topic(String name, List<Integer> partitionIndexes) {

        public Topic {
            partitionIndexes = List.copyOf(partitionIndexes);
        }

        private static Topic read(ProtocolReader reader) {
            Topic topic = new Topic(reader.readString(), reader.readInt32Array());
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeInt32Array(partitionIndexes);
            writer.writeTaggedFields();
        }
    }

    /** One group's part of a batched request (v8+); {@code topics} null for all of its partitions. */
    public record Group(String groupId, String memberId, int memberEpoch, List<Topic> topics) {

        public Group {
            topics = topics == null ? null : List.copyOf(topics);
        }

        private static Group read(ProtocolReader reader, short version) {
            String groupId = reader.readString();
            String memberId = version >= 9 ? reader.readNullableString() : null;
            int memberEpoch = version >= 9 ? reader.readInt32() : -1;
            List<Topic> topics = reader.readNullableArray(Topic::read, 3);
            reader.readTaggedFields();
            return new Group(groupId, memberId, memberEpoch, topics);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(groupId);
            if (version >= 9) {
                writer.writeNullableString(memberId);
                writer.writeInt32(memberEpoch);
            }
            writer.writeNullableArray(topics, (w, t) -> t.write(w));
            writer.writeTaggedFields();
        }
    }

    public OffsetFetchRequest {
        topics = topics == null ? null : List.copyOf(topics);
        groups = List.copyOf(groups);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static OffsetFetchRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        String groupId = "";
        List<Topic> topics = List.of();
        List<Group> groups = List.of();
        if (version < FIRST_BATCHED_VERSION) {
            groupId = reader.readString();
            topics = version >= 2 ? reader.readNullableArray(Topic::read, 3) : reader.readArray(Topic::read, 3);
        } else {
            groups = reader.readArray(r -> Group.read(r, version), 3);
        }
        boolean requireStable = version >= 7 && reader.readBool();
        reader.readTaggedFields();
        return new OffsetFetchRequest(groupId, topics, requireStable, groups);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version < FIRST_BATCHED_VERSION) {
            writer.writeString(groupId);
            writer.writeNullableArray(version >= 2 ? topics : nonNull(topics), (w, t) -> t.write(w));
        } else {
            writer.writeArray(groups, (w, g) -> g.write(w, version));
        }
        if (version >= 7) {
            writer.writeBool(requireStable);
        }
        writer.writeTaggedFields();
    }

    private static List<Topic> nonNull(List<Topic> topics) {
        if (topics == null) {
            throw new IllegalArgumentException("OffsetFetch version 1 cannot ask for all topics (a null list)");
        }
        return topics;
    }
}
