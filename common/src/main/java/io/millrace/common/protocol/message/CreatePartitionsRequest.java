package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * CreatePartitions request (api key 37): grow topics to a new partition count.
 *
 * <pre>
 * CreatePartitionsRequest => [topics] timeout_ms validate_only TAG_BUFFER
 *   topics => name count [assignments] TAG_BUFFER
 *     name  => STRING
 *     count => INT32              the new partition count, not the number to add
 *     assignments => [broker_ids] TAG_BUFFER   (nullable: null lets the controller place them)
 *       broker_ids => [INT32]     one entry per new partition, in partition order
 *   timeout_ms    => INT32
 *   validate_only => BOOLEAN
 * </pre>
 *
 * Version 0 (the oldest supported) has every field. Version 1 has the same layout. Version 2 is
 * flexible. Version 3 has the same layout (it may return THROTTLING_QUOTA_EXCEEDED).
 */
public record CreatePartitionsRequest(List<CreatePartitionsTopic> topics, int timeoutMs, boolean validateOnly)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.CREATE_PARTITIONS;

    /** @param assignments the brokers of each new partition, or null to let the controller place them */
    public record CreatePartitionsTopic(String name, int count, List<CreatePartitionsAssignment> assignments) {

        public CreatePartitionsTopic {
            assignments = assignments == null ? null : List.copyOf(assignments);
        }

        private static CreatePartitionsTopic read(ProtocolReader reader) {
            CreatePartitionsTopic topic = new CreatePartitionsTopic(reader.readString(), reader.readInt32(),
                reader.readNullableArray(CreatePartitionsAssignment::read, 1));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeInt32(count);
            writer.writeNullableArray(assignments, (w, a) -> a.write(w));
            writer.writeTaggedFields();
        }
    }

    public record CreatePartitionsAssignment(List<Integer> brokerIds) {

        public CreatePartitionsAssignment {
            brokerIds = List.copyOf(brokerIds);
        }

        private static CreatePartitionsAssignment read(ProtocolReader reader) {
            CreatePartitionsAssignment assignment = new CreatePartitionsAssignment(reader.readInt32Array());
            reader.readTaggedFields();
            return assignment;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32Array(brokerIds);
            writer.writeTaggedFields();
        }
    }

    public CreatePartitionsRequest {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static CreatePartitionsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<CreatePartitionsTopic> topics = reader.readArray(CreatePartitionsTopic::read, 7);
        int timeoutMs = reader.readInt32();
        boolean validateOnly = reader.readBool();
        reader.readTaggedFields();
        return new CreatePartitionsRequest(topics, timeoutMs, validateOnly);
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
