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
 * Metadata request (api key 3): brokers, and the partitions and leaders of some or all topics.
 *
 * <pre>
 * MetadataRequest => [topics] allow_auto_topic_creation include_cluster_authorized_operations
 *                    include_topic_authorized_operations TAG_BUFFER
 *   topics => topic_id name TAG_BUFFER      (nullable array: null means all topics)
 *     topic_id => UUID                      (v10+)
 *     name     => STRING                    (nullable in v10+)
 *   allow_auto_topic_creation             => BOOLEAN   (v4+, default true)
 *   include_cluster_authorized_operations => BOOLEAN   (v8-v10)
 *   include_topic_authorized_operations   => BOOLEAN   (v8+)
 * </pre>
 *
 * Version 1 makes a null topic array mean "all topics" (v0, with an empty array meaning all, is
 * not supported). Versions 2 and 3 are the same as 1. Version 4 adds allow_auto_topic_creation.
 * Version 8 adds the authorized-operations flags. Version 9 is flexible. Version 10 adds topic ids
 * (and nullable names). Version 11 drops include_cluster_authorized_operations. Version 12 lets a
 * client ask by topic id; version 13 only adds a response field.
 */
public record MetadataRequest(List<Topic> topics, boolean allowAutoTopicCreation,
                              boolean includeClusterAuthorizedOperations,
                              boolean includeTopicAuthorizedOperations) implements ApiMessage {

    private static final ApiKey API = ApiKey.METADATA;

    /** A topic asked for by name (or, from v12, by id with a null name). */
    public record Topic(UUID topicId, String name) {

        public Topic {
            topicId = topicId == null ? Uuids.ZERO : topicId;
        }

        public static Topic named(String name) {
            return new Topic(Uuids.ZERO, name);
        }

        /**
         * Whether the topic is asked for by id: a non-zero id, whatever the name (Kafka's clients send an
         * empty name with the id, others send null).
         */
        public boolean byId() {
            return !Uuids.ZERO.equals(topicId);
        }

        private static Topic read(ProtocolReader reader, short version) {
            UUID topicId = version >= 10 ? reader.readUuid() : Uuids.ZERO;
            String name = version >= 10 ? reader.readNullableString() : reader.readString();
            reader.readTaggedFields();
            return new Topic(topicId, name);
        }

        private void write(ProtocolWriter writer, short version) {
            if (version >= 10) {
                writer.writeUuid(topicId);
                writer.writeNullableString(name);
            } else {
                writer.writeString(name);
            }
            writer.writeTaggedFields();
        }
    }

    public MetadataRequest {
        topics = topics == null ? null : List.copyOf(topics);
    }

    /** Whether the client asks for every topic. */
    public boolean allTopics() {
        return topics == null;
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static MetadataRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<Topic> topics = reader.readNullableArray(r -> Topic.read(r, version), 1);
        boolean allowAutoTopicCreation = version < 4 || reader.readBool();
        boolean includeCluster = version >= 8 && version <= 10 && reader.readBool();
        boolean includeTopic = version >= 8 && reader.readBool();
        reader.readTaggedFields();
        return new MetadataRequest(topics, allowAutoTopicCreation, includeCluster, includeTopic);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeNullableArray(topics, (w, t) -> t.write(w, version));
        if (version >= 4) {
            writer.writeBool(allowAutoTopicCreation);
        }
        if (version >= 8 && version <= 10) {
            writer.writeBool(includeClusterAuthorizedOperations);
        }
        if (version >= 8) {
            writer.writeBool(includeTopicAuthorizedOperations);
        }
        writer.writeTaggedFields();
    }
}
