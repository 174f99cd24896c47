package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DeleteRecords response (api key 21).
 *
 * <pre>
 * DeleteRecordsResponse => throttle_time_ms [topics] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   topics => name [partitions] TAG_BUFFER
 *     name => STRING
 *     partitions => partition_index low_watermark error_code TAG_BUFFER
 *       partition_index => INT32
 *       low_watermark   => INT64   the partition's log start offset after the deletion (-1 on error)
 *       error_code      => INT16
 * </pre>
 *
 * Version 0 (the oldest supported) has every field. Version 1 has the same layout (the throttle is
 * applied after the answer). Version 2 is flexible.
 */
public record DeleteRecordsResponse(int throttleTimeMs, List<DeleteRecordsTopicResult> topics) implements ApiMessage {

    private static final ApiKey API = ApiKey.DELETE_RECORDS;

    public record DeleteRecordsTopicResult(String name, List<DeleteRecordsPartitionResult> partitions) {

        public DeleteRecordsTopicResult {
            partitions = List.copyOf(partitions);
        }

        private static DeleteRecordsTopicResult read(ProtocolReader reader) {
            DeleteRecordsTopicResult topic = new DeleteRecordsTopicResult(reader.readString(),
                reader.readArray(DeleteRecordsPartitionResult::read, 14));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    public record DeleteRecordsPartitionResult(int partitionIndex, long lowWatermark, short errorCode) {

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static DeleteRecordsPartitionResult read(ProtocolReader reader) {
            DeleteRecordsPartitionResult result = new DeleteRecordsPartitionResult(reader.readInt32(), reader.readInt64(),
                reader.readInt16());
            reader.readTaggedFields();
            return result;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(partitionIndex);
            writer.writeInt64(lowWatermark);
            writer.writeInt16(errorCode);
            writer.writeTaggedFields();
        }
    }

    public DeleteRecordsResponse {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DeleteRecordsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        List<DeleteRecordsTopicResult> topics = reader.readArray(DeleteRecordsTopicResult::read, 3);
        reader.readTaggedFields();
        return new DeleteRecordsResponse(throttleTimeMs, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(topics, (w, t) -> t.write(w));
        writer.writeTaggedFields();
    }
}
