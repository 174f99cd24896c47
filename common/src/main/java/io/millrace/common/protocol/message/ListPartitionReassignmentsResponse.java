package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * ListPartitionReassignments response (api key 46).
 *
 * <pre>
 * ListPartitionReassignmentsResponse => throttle_time_ms error_code error_message [topics] TAG_BUFFER
 *   topics => name [partitions] TAG_BUFFER
 *     partitions => partition_index [replicas] [adding_replicas] [removing_replicas] TAG_BUFFER
 *       replicas          => INT32   the target's and the original's replicas together, for the move
 *       adding_replicas   => INT32   the target's replicas the partition did not have
 *       removing_replicas => INT32   the original's replicas the target does not keep
 * </pre>
 */
public record ListPartitionReassignmentsResponse(int throttleTimeMs, short errorCode, String errorMessage,
                                                 List<OngoingTopicReassignment> topics) implements ApiMessage {

    private static final ApiKey API = ApiKey.LIST_PARTITION_REASSIGNMENTS;

    /** One topic's partitions under reassignment. */
    public record OngoingTopicReassignment(String name, List<OngoingPartitionReassignment> partitions) {

        public OngoingTopicReassignment {
            partitions = List.copyOf(partitions);
        }

        private static OngoingTopicReassignment read(ProtocolReader reader) {
            OngoingTopicReassignment topic = new OngoingTopicReassignment(reader.readString(),
                reader.readArray(OngoingPartitionReassignment::read, 8));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    /** One partition's move as it stands. */
    public record OngoingPartitionReassignment(int partitionIndex, List<Integer> replicas, List<Integer> addingReplicas,
                                               List<Integer> removingReplicas) {

        public OngoingPartitionReassignment {
            replicas = List.copyOf(replicas);
            addingReplicas = List.copyOf(addingReplicas);
            removingReplicas = List.copyOf(removingReplicas);
        }

        private static OngoingPartitionReassignment read(ProtocolReader reader) {
            OngoingPartitionReassignment partition = new OngoingPartitionReassignment(reader.readInt32(),
                reader.readInt32Array(), reader.readInt32Array(), reader.readInt32Array());
            reader.readTaggedFields();
            return partition;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(partitionIndex);
            writer.writeInt32Array(replicas);
            writer.writeInt32Array(addingReplicas);
            writer.writeInt32Array(removingReplicas);
            writer.writeTaggedFields();
        }
    }

    public ListPartitionReassignmentsResponse {
        topics = List.copyOf(topics);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ListPartitionReassignmentsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        ListPartitionReassignmentsResponse response = new ListPartitionReassignmentsResponse(reader.readInt32(),
            reader.readInt16(), reader.readNullableString(), reader.readArray(OngoingTopicReassignment::read, 3));
        reader.readTaggedFields();
        return response;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeInt16(errorCode);
        writer.writeNullableString(errorMessage);
        writer.writeArray(topics, (w, t) -> t.write(w));
        writer.writeTaggedFields();
    }
}
