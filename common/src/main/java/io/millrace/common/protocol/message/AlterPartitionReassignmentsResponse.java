package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * AlterPartitionReassignments response (api key 45): whether each move started (or was cancelled).
 *
 * <pre>
 * AlterPartitionReassignmentsResponse => throttle_time_ms allow_replication_factor_change error_code
 *                                        error_message [responses] TAG_BUFFER
 *   throttle_time_ms                => INT32
 *   allow_replication_factor_change => BOOLEAN   (v1+) the request's, echoed; left out below v1
 *   error_code                      => INT16     NOT_CONTROLLER from a broker that is not the controller
 *   error_message                   => NULLABLE_STRING
 *   responses => name [partitions] TAG_BUFFER
 *     partitions => partition_index error_code error_message TAG_BUFFER
 * </pre>
 */
public record AlterPartitionReassignmentsResponse(int throttleTimeMs, boolean allowReplicationFactorChange, short errorCode,
                                                  String errorMessage, List<TopicResponse> responses) implements ApiMessage {

    private static final ApiKey API = ApiKey.ALTER_PARTITION_REASSIGNMENTS;

    /** One topic's partitions. */
    public record TopicResponse(String name, List<PartitionResponse> partitions) {

        public TopicResponse {
            partitions = List.copyOf(partitions);
        }

        private static TopicResponse read(ProtocolReader reader) {
            TopicResponse topic = new TopicResponse(reader.readString(), reader.readArray(PartitionResponse::read, 8));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    /** What became of one partition's move. */
    public record PartitionResponse(int partitionIndex, short errorCode, String errorMessage) {

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static PartitionResponse read(ProtocolReader reader) {
            PartitionResponse partition = new PartitionResponse(reader.readInt32(), reader.readInt16(), reader.readNullableString());
            reader.readTaggedFields();
            return partition;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(partitionIndex);
            writer.writeInt16(errorCode);
            writer.writeNullableString(errorMessage);
            writer.writeTaggedFields();
        }
    }

    public AlterPartitionReassignmentsResponse {
        responses = List.copyOf(responses);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static AlterPartitionReassignmentsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        boolean allowChange = version < 1 || reader.readBool();
        AlterPartitionReassignmentsResponse response = new AlterPartitionReassignmentsResponse(throttleTimeMs, allowChange,
            reader.readInt16(), reader.readNullableString(), reader.readArray(TopicResponse::read, 3));
        reader.readTaggedFields();
        return response;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        if (version >= 1) {
            writer.writeBool(allowReplicationFactorChange); // ignorable: dropped below version 1
        }
        writer.writeInt16(errorCode);
        writer.writeNullableString(errorMessage);
        writer.writeArray(responses, (w, r) -> r.write(w));
        writer.writeTaggedFields();
    }
}
