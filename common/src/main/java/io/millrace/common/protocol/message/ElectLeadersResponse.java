package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * ElectLeaders response (api key 43).
 *
 * <pre>
 * ElectLeadersResponse => throttle_time_ms error_code [replica_election_results] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   error_code       => INT16   (v1+)
 *   replica_election_results => topic [partition_result] TAG_BUFFER
 *     topic => STRING
 *     partition_result => partition_id error_code error_message TAG_BUFFER
 *       partition_id  => INT32
 *       error_code    => INT16           ELECTION_NOT_NEEDED when the partition already has that leader
 *       error_message => NULLABLE_STRING
 * </pre>
 *
 * Version 1 adds the top-level error code. Version 2 is flexible.
 */
public record ElectLeadersResponse(int throttleTimeMs, short errorCode, List<ReplicaElectionResult> results)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.ELECT_LEADERS;

    /** One topic's partitions. */
    public record ReplicaElectionResult(String topic, List<PartitionResult> partitions) {

        public ReplicaElectionResult {
            partitions = List.copyOf(partitions);
        }

        private static ReplicaElectionResult read(ProtocolReader reader) {
            ReplicaElectionResult result = new ReplicaElectionResult(reader.readString(),
                reader.readArray(PartitionResult::read, 7));
            reader.readTaggedFields();
            return result;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(topic);
            writer.writeArray(partitions, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    /** What became of one partition's election. */
    public record PartitionResult(int partitionId, short errorCode, String errorMessage) {

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static PartitionResult read(ProtocolReader reader) {
            PartitionResult result = new PartitionResult(reader.readInt32(), reader.readInt16(), reader.readNullableString());
            reader.readTaggedFields();
            return result;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(partitionId);
            writer.writeInt16(errorCode);
            writer.writeNullableString(errorMessage);
            writer.writeTaggedFields();
        }
    }

    public ElectLeadersResponse {
        results = List.copyOf(results);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ElectLeadersResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        short errorCode = version >= 1 ? reader.readInt16() : Errors.NONE.code();
        List<ReplicaElectionResult> results = reader.readArray(ReplicaElectionResult::read, 3);
        reader.readTaggedFields();
        return new ElectLeadersResponse(throttleTimeMs, errorCode, results);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        if (version >= 1) {
            writer.writeInt16(errorCode);
        }
        writer.writeArray(results, (w, r) -> r.write(w));
        writer.writeTaggedFields();
    }
}
