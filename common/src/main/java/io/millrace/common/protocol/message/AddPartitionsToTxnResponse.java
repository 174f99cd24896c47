package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * AddPartitionsToTxn response (api key 24): an error code per partition asked for.
 *
 * <pre>
 * AddPartitionsToTxnResponse => throttle_time_ms [results] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   results => name [partitions] TAG_BUFFER
 *     name       => STRING
 *     partitions => partition_index error_code TAG_BUFFER   (INT32, INT16)
 * </pre>
 *
 * Versions 0 to 2 have the same layout; version 3 is flexible. Versions 4 and 5, with a top-level
 * error code and results grouped by transaction, answer the brokers' batched form and are not
 * supported.
 */
public record AddPartitionsToTxnResponse(int throttleTimeMs, List<TopicResult> results) implements ApiMessage {

    private static final ApiKey API = ApiKey.ADD_PARTITIONS_TO_TXN;

    /** One topic's results. */
    public record TopicResult(String name, List<PartitionResult> partitions) {

        public TopicResult {
            partitions = List.copyOf(partitions);
        }

        private static TopicResult read(ProtocolReader reader) {
            String name = reader.readString();
            List<PartitionResult> partitions = reader.readArray(PartitionResult::read, 6);
            reader.readTaggedFields();
            return new TopicResult(name, partitions);
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    /** Whether one partition joined the transaction. */
    public record PartitionResult(int partitionIndex, short errorCode) {

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static PartitionResult read(ProtocolReader reader) {
            PartitionResult result = new PartitionResult(reader.readInt32(), reader.readInt16());
            reader.readTaggedFields();
            return result;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(partitionIndex);
            writer.writeInt16(errorCode);
            writer.writeTaggedFields();
        }
    }

    public AddPartitionsToTxnResponse {
        results = List.copyOf(results);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static AddPartitionsToTxnResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        List<TopicResult> results = reader.readArray(TopicResult::read, 3);
        reader.readTaggedFields();
        return new AddPartitionsToTxnResponse(throttleTimeMs, results);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(results, (w, t) -> t.write(w));
        writer.writeTaggedFields();
    }
}
