package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * OffsetDelete request (api key 47): delete a group's committed offsets of some partitions, which
 * the group must not be subscribed to.
 *
 * <pre>
 * OffsetDeleteRequest => group_id [topics]
 *   group_id => STRING
 *   topics => name [partitions]
 *     name       => STRING
 *     partitions => partition_index   (INT32)
 * </pre>
 *
 * Version 0 is the only version; it is not flexible.
 */
public record OffsetDeleteRequest(String groupId, List<Topic> topics) implements ApiMessage {

    private static final ApiKey API = ApiKey.OFFSET_DELETE;

    /** One topic's partitions whose offsets are deleted. */
    public record Topic(String name, List<Integer> partitions) {

        public Topic {
            partitions = List.copyOf(partitions);
        }

        private static Topic read(ProtocolReader reader) {
            return new Topic(reader.readString(), reader.readInt32Array());
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeInt32Array(partitions);
        }
    }

    public OffsetDeleteRequest {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static OffsetDeleteRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        String groupId = reader.readString();
        List<Topic> topics = reader.readArray(Topic::read, 6);
        return new OffsetDeleteRequest(groupId, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeString(groupId);
        writer.writeArray(topics, (w, t) -> t.write(w));
    }
}
