package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * CreateTopics request (api key 19).
 *
 * <pre>
 * CreateTopicsRequest => [topics] timeout_ms validate_only TAG_BUFFER
 *   topics => name num_partitions replication_factor [assignments] [configs] TAG_BUFFER
 *     name               => STRING
 *     num_partitions     => INT32    (-1: the broker's default or the assignments' count)
 *     replication_factor => INT16    (-1: the broker's default)
 *     assignments => partition_index [broker_ids] TAG_BUFFER
 *       partition_index => INT32   broker_ids => [INT32]
 *     configs => name value TAG_BUFFER
 *       name => STRING   value => NULLABLE_STRING
 *   timeout_ms    => INT32
 *   validate_only => BOOLEAN
 * </pre>
 *
 * Version 2 (the oldest supported) has validate_only. Version 3 has the same layout. Version 4
 * allows -1 partitions and replication factor without assignments. Version 5 is flexible.
 * Versions 6 and 7 have the same layout (6 may return THROTTLING_QUOTA_EXCEEDED, 7 returns topic ids).
 */
public record CreateTopicsRequest(List<CreatableTopic> topics, int timeoutMs, boolean validateOnly) implements ApiMessage {

    private static final ApiKey API = ApiKey.CREATE_TOPICS;

    public record CreatableTopic(String name, int numPartitions, short replicationFactor,
                                 List<ReplicaAssignment> assignments, List<TopicConfig> configs) {

        public CreatableTopic {
            assignments = List.copyOf(assignments);
            configs = List.copyOf(configs);
        }

        private static CreatableTopic read(ProtocolReader reader) {
            CreatableTopic topic = new CreatableTopic(reader.readString(), reader.readInt32(), reader.readInt16(),
                reader.readArray(ReplicaAssignment::read, 5), reader.readArray(TopicConfig::read, 2));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeInt32(numPartitions);
            writer.writeInt16(replicationFactor);
            writer.writeArray(assignments, (w, a) -> a.write(w));
            writer.writeArray(configs, (w, c) -> c.write(w));
            writer.writeTaggedFields();
        }
    }

    public record ReplicaAssignment(int partitionIndex, List<Integer> brokerIds) {

        public ReplicaAssignment {
            brokerIds = List.copyOf(brokerIds);
        }

        private static ReplicaAssignment read(ProtocolReader reader) {
            ReplicaAssignment assignment = new ReplicaAssignment(reader.readInt32(), reader.readInt32Array());
            reader.readTaggedFields();
            return assignment;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(partitionIndex);
            writer.writeInt32Array(brokerIds);
            writer.writeTaggedFields();
        }
    }

    public record TopicConfig(String name, String value) {

        private static TopicConfig read(ProtocolReader reader) {
            TopicConfig config = new TopicConfig(reader.readString(), reader.readNullableString());
            reader.readTaggedFields();
            return config;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeNullableString(value);
            writer.writeTaggedFields();
        }
    }

    public CreateTopicsRequest {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static CreateTopicsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<CreatableTopic> topics = reader.readArray(CreatableTopic::read, 9);
        int timeoutMs = reader.readInt32();
        boolean validateOnly = reader.readBool();
        reader.readTaggedFields();
        return new CreateTopicsRequest(topics, timeoutMs, validateOnly);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeArray(topics, (w, t) -> t.write(w));
        writer.writeInt32(timeoutMs);
        writer.writeBool(validateOnly);
        writer.writeTaggedFields();
    }
}
