package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import io.millrace.common.protocol.types.Uuids;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;

/**
 * DeleteTopics response (api key 20).
 *
 * <pre>
 * DeleteTopicsResponse => throttle_time_ms [responses] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   responses => name topic_id error_code error_message TAG_BUFFER
 *     name          => STRING            (nullable in v6+)
 *     topic_id      => UUID              (v6+)
 *     error_code    => INT16
 *     error_message => NULLABLE_STRING   (v5+)
 * </pre>
 *
 * Version 1 (the oldest supported) has the throttle time. Versions 2 and 3 have the same layout
 * (3 may return TOPIC_DELETION_DISABLED). Version 4 is flexible. Version 5 adds the error message,
 * version 6 the topic id (Millrace sends {@link Uuids#ZERO}).
 */
public record DeleteTopicsResponse(int throttleTimeMs, List<DeletableTopicResult> responses) implements ApiMessage {

    private static final ApiKey API = ApiKey.DELETE_TOPICS;

    public record DeletableTopicResult(String name, UUID topicId, short errorCode, String errorMessage) {

        public DeletableTopicResult {
            topicId = topicId == null ? Uuids.ZERO : topicId;
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static DeletableTopicResult read(ProtocolReader reader, short version) {
            String name = version >= 6 ? reader.readNullableString() : reader.readString();
            UUID topicId = version >= 6 ? reader.readUuid() : Uuids.ZERO;
            short errorCode = reader.readInt16();
            String errorMessage = version >= 5 ? reader.readNullableString() : null;
            reader.readTaggedFields();
            return new DeletableTopicResult(name, topicId, errorCode, errorMessage);
        }

        private void write(ProtocolWriter writer, short version) {
            if (version >= 6) {
                writer.writeNullableString(name);
                writer.writeUuid(topicId);
            } else {
                writer.writeString(name);
            }
            writer.writeInt16(errorCode);
            if (version >= 5) {
                writer.writeNullableString(errorMessage);
            }
            writer.writeTaggedFields();
        }
    }

    public DeleteTopicsResponse {
        responses = List.copyOf(responses);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DeleteTopicsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        List<DeletableTopicResult> responses = reader.readArray(r -> DeletableTopicResult.read(r, version), 4);
        reader.readTaggedFields();
        return new DeleteTopicsResponse(throttleTimeMs, responses);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(responses, (w, r) -> r.write(w, version));
        writer.writeTaggedFields();
    }
}
