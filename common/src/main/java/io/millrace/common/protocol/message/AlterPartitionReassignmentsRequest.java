package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * AlterPartitionReassignments request (api key 45): move partitions to new replica lists, or
 * cancel their moves.
 *
 * <pre>
 * AlterPartitionReassignmentsRequest => timeout_ms allow_replication_factor_change [topics] TAG_BUFFER
 *   timeout_ms                      => INT32
 *   allow_replication_factor_change => BOOLEAN   (v1+) false refuses a target with another replica count
 *   topics => name [partitions] TAG_BUFFER
 *     partitions => partition_index [replicas] TAG_BUFFER
 *       partition_index => INT32
 *       replicas        => INT32   a null array cancels the partition's ongoing reassignment
 * </pre>
 *
 * Every version is flexible. Version 1 adds allow_replication_factor_change (KIP-860).
 */
public record AlterPartitionReassignmentsRequest(int timeoutMs, boolean allowReplicationFactorChange,
                                                 List<ReassignableTopic> topics) implements ApiMessage {

    private static final ApiKey API = ApiKey.ALTER_PARTITION_REASSIGNMENTS;

    /** One topic's partitions to move. */
    public record ReassignableTopic(String name, List<ReassignablePartition> partitions) {

        public ReassignableTopic {
            partitions = List.copyOf(partitions);
        }

        private static ReassignableTopic read(ProtocolReader reader) {
            ReassignableTopic topic = new ReassignableTopic(reader.readString(), reader.readArray(ReassignablePartition::read, 6));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    /** One partition's target replicas, first the preferred leader; null to cancel its reassignment. */
    public record ReassignablePartition(int partitionIndex, List<Integer> replicas) {

        public ReassignablePartition {
            replicas = replicas == null ? null : List.copyOf(replicas);
        }

        public boolean cancels() {
            return replicas == null;
        }

        private static ReassignablePartition read(ProtocolReader reader) {
            ReassignablePartition partition = new ReassignablePartition(reader.readInt32(),
                reader.readNullableArray(ProtocolReader::readInt32, 4));
            reader.readTaggedFields();
            return partition;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(partitionIndex);
            writer.writeNullableArray(replicas, ProtocolWriter::writeInt32);
            writer.writeTaggedFields();
        }
    }

    public AlterPartitionReassignmentsRequest {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static AlterPartitionReassignmentsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int timeoutMs = reader.readInt32();
        boolean allowChange = version < 1 || reader.readBool();
        List<ReassignableTopic> topics = reader.readArray(ReassignableTopic::read, 3);
        reader.readTaggedFields();
        return new AlterPartitionReassignmentsRequest(timeoutMs, allowChange, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(timeoutMs);
        if (version >= 1) {
            writer.writeBool(allowReplicationFactorChange);
        } else if (!allowReplicationFactorChange) {
            throw new IllegalArgumentException("AlterPartitionReassignments v0 always allows a replication factor change");
        }
        writer.writeArray(topics, (w, t) -> t.write(w));
        writer.writeTaggedFields();
    }
}
