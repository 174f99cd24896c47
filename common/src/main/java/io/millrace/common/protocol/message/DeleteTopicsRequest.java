package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import io.millrace.common.protocol.types.Uuids;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;

/**
 * DeleteTopics request (api key 20).
 *
 * <pre>
 * DeleteTopicsRequest v1-v5 => [topic_names] timeout_ms TAG_BUFFER
 *   topic_names => [STRING]
 *   timeout_ms  => INT32
 * DeleteTopicsRequest v6    => [topics] timeout_ms TAG_BUFFER
 *   topics => name topic_id TAG_BUFFER
 *     name => COMPACT_NULLABLE_STRING   topic_id => UUID
 * </pre>
 *
 * Version 1 (the oldest supported) to 3 have the same layout. Version 4 is flexible. Version 5
 * may return THROTTLING_QUOTA_EXCEEDED and error messages. Version 6 names each topic by name or
 * id. In this class every version reads into {@link TopicRef}s: before version 6 their ids are
 * {@link Uuids#ZERO}, and writing a ref without a name at those versions is an error.
 */
public record DeleteTopicsRequest(List<TopicRef> topics, int timeoutMs) implements ApiMessage {

    private static final ApiKey API = ApiKey.DELETE_TOPICS;

    /** A topic to delete, by name, or from version 6 by id with a null name. */
    public record TopicRef(String name, UUID topicId) {

        public TopicRef {
            topicId = topicId == null ? Uuids.ZERO : topicId;
        }

        public static TopicRef named(String name) {
            return new TopicRef(name, Uuids.ZERO);
        }

        private static TopicRef read(ProtocolReader reader) {
            TopicRef ref = new TopicRef(reader.readNullableString(), reader.readUuid());
            reader.readTaggedFields();
            return ref;
        }

        private void write(ProtocolWriter writer) {
            writer.writeNullableString(name);
            writer.writeUuid(topicId);
            writer.writeTaggedFields();
        }
    }

    public DeleteTopicsRequest {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DeleteTopicsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<TopicRef> topics = version >= 6
            ? reader.readArray(TopicRef::read, 18)
            : reader.readStringArray().stream().map(TopicRef::named).toList();
        int timeoutMs = reader.readInt32();
        reader.readTaggedFields();
        return new DeleteTopicsRequest(topics, timeoutMs);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 6) {
            writer.writeArray(topics, (w, t) -> t.write(w));
        } else {
            writer.writeStringArray(topics.stream().map(TopicRef::name).toList());
        }
        writer.writeInt32(timeoutMs);
        writer.writeTaggedFields();
    }
}
