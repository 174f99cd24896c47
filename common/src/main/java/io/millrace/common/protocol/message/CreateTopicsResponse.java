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
 * CreateTopics response (api key 19).
 *
 * <pre>
 * CreateTopicsResponse => throttle_time_ms [topics] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   topics => name topic_id error_code error_message num_partitions replication_factor [configs] TAG_BUFFER
 *     name               => STRING
 *     topic_id           => UUID              (v7+)
 *     error_code         => INT16
 *     error_message      => NULLABLE_STRING
 *     num_partitions     => INT32             (v5+)
 *     replication_factor => INT16             (v5+)
 *     configs => name value read_only config_source is_sensitive TAG_BUFFER   (v5+, nullable array)
 *       name => STRING   value => NULLABLE_STRING   read_only => BOOLEAN
 *       config_source => INT8   is_sensitive => BOOLEAN
 * </pre>
 *
 * Version 2 (the oldest supported) has the throttle time and error message. Versions 3 and 4
 * have the same layout. Version 5 is flexible and returns the created topic's partitions,
 * replication factor and configs; Kafka may add the tagged field TopicConfigErrorCode (0), which
 * Millrace skips and never writes. Version 6 has the same layout. Version 7 adds the topic id;
 * Millrace sends {@link Uuids#ZERO}.
 */
public record CreateTopicsResponse(int throttleTimeMs, List<CreatableTopicResult> topics) implements ApiMessage {

    private static final ApiKey API = ApiKey.CREATE_TOPICS;

    public record CreatableTopicResult(String name, UUID topicId, short errorCode, String errorMessage,
                                       int numPartitions, short replicationFactor, List<TopicConfig> configs) {

        public CreatableTopicResult {
            topicId = topicId == null ? Uuids.ZERO : topicId;
            configs = configs == null ? null : List.copyOf(configs);
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static CreatableTopicResult read(ProtocolReader reader, short version) {
            String name = reader.readString();
            UUID topicId = version >= 7 ? reader.readUuid() : Uuids.ZERO;
            short errorCode = reader.readInt16();
            String errorMessage = reader.readNullableString();
            int numPartitions = -1;
            short replicationFactor = -1;
            List<TopicConfig> configs = List.of();
            if (version >= 5) {
                numPartitions = reader.readInt32();
                replicationFactor = reader.readInt16();
                configs = reader.readNullableArray(TopicConfig::read, 5);
            }
            reader.readTaggedFields();
            return new CreatableTopicResult(name, topicId, errorCode, errorMessage, numPartitions, replicationFactor, configs);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(name);
            if (version >= 7) {
                writer.writeUuid(topicId);
            }
            writer.writeInt16(errorCode);
            writer.writeNullableString(errorMessage);
            if (version >= 5) {
                writer.writeInt32(numPartitions);
                writer.writeInt16(replicationFactor);
                writer.writeNullableArray(configs, (w, c) -> c.write(w));
            }
            writer.writeTaggedFields();
        }
    }

    public record TopicConfig(String name, String value, boolean readOnly, byte configSource, boolean isSensitive) {

        private static TopicConfig read(ProtocolReader reader) {
            TopicConfig config = new TopicConfig(reader.readString(), reader.readNullableString(), reader.readBool(),
                reader.readInt8(), reader.readBool());
            reader.readTaggedFields();
            return config;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeNullableString(value);
            writer.writeBool(readOnly);
            writer.writeInt8(configSource);
            writer.writeBool(isSensitive);
            writer.writeTaggedFields();
        }
    }

    public CreateTopicsResponse {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static CreateTopicsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        List<CreatableTopicResult> topics = reader.readArray(r -> CreatableTopicResult.read(r, version), 5);
        reader.readTaggedFields();
        return new CreateTopicsResponse(throttleTimeMs, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(topics, (w, t) -> t.write(w, version));
        writer.writeTaggedFields();
    }
}
