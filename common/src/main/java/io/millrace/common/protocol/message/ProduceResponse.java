package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Produce response (api key 0). Not sent at all for acks=0.
 *
 * <pre>
 * ProduceResponse => [responses] throttle_time_ms TAG_BUFFER
 *   responses => name [partition_responses] TAG_BUFFER
 *     name => STRING
 *     partition_responses => index error_code base_offset log_append_time_ms log_start_offset
 *                            [record_errors] error_message TAG_BUFFER
 *       index              => INT32
 *       error_code         => INT16
 *       base_offset        => INT64
 *       log_append_time_ms => INT64   (-1 unless the topic uses LogAppendTime)
 *       log_start_offset   => INT64   (v5+)
 *       record_errors => batch_index batch_index_error_message TAG_BUFFER   (v8+)
 *         batch_index => INT32   batch_index_error_message => NULLABLE_STRING
 *       error_message => NULLABLE_STRING   (v8+)
 *   throttle_time_ms => INT32
 * </pre>
 *
 * Version 5 adds the log start offset, 8 the record errors and error message, 9 is flexible.
 * From version 10 Kafka may add the tagged fields CurrentLeader (partition, tag 0) and
 * NodeEndpoints (top level, tag 0) to a NOT_LEADER_OR_FOLLOWER answer; Millrace skips them when
 * reading and never writes them, so a client falls back to a metadata refresh.
 */
public record ProduceResponse(List<TopicResponse> responses, int throttleTimeMs) implements ApiMessage {

    private static final ApiKey API = ApiKey.PRODUCE;

    public record TopicResponse(String name, List<PartitionResponse> partitionResponses) {

        public TopicResponse {
            partitionResponses = List.copyOf(partitionResponses);
        }

        private static TopicResponse read(ProtocolReader reader, short version) {
            TopicResponse topic = new TopicResponse(reader.readString(),
                reader.readArray(r -> PartitionResponse.read(r, version), 22));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(name);
            writer.writeArray(partitionResponses, (w, p) -> p.write(w, version));
            writer.writeTaggedFields();
        }
    }

    public record PartitionResponse(int index, short errorCode, long baseOffset, long logAppendTimeMs,
                                    long logStartOffset, List<RecordError> recordErrors, String errorMessage) {

        public PartitionResponse {
            recordErrors = List.copyOf(recordErrors);
        }

        /** A partition answer without record errors or message. */
        public static PartitionResponse of(int index, Errors error, long baseOffset, long logAppendTimeMs, long logStartOffset) {
            return new PartitionResponse(index, error.code(), baseOffset, logAppendTimeMs, logStartOffset, List.of(), null);
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static PartitionResponse read(ProtocolReader reader, short version) {
            int index = reader.readInt32();
            short errorCode = reader.readInt16();
            long baseOffset = reader.readInt64();
            long logAppendTimeMs = reader.readInt64();
            long logStartOffset = version >= 5 ? reader.readInt64() : -1L;
            List<RecordError> recordErrors = version >= 8 ? reader.readArray(RecordError::read, 5) : List.of();
            String errorMessage = version >= 8 ? reader.readNullableString() : null;
            reader.readTaggedFields();
            return new PartitionResponse(index, errorCode, baseOffset, logAppendTimeMs, logStartOffset, recordErrors, errorMessage);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeInt32(index);
            writer.writeInt16(errorCode);
            writer.writeInt64(baseOffset);
            writer.writeInt64(logAppendTimeMs);
            if (version >= 5) {
                writer.writeInt64(logStartOffset);
            }
            if (version >= 8) {
                writer.writeArray(recordErrors, (w, e) -> e.write(w));
                writer.writeNullableString(errorMessage);
            }
            writer.writeTaggedFields();
        }
    }

    /** The index, within its batch, of a record that made the batch be rejected. */
    public record RecordError(int batchIndex, String batchIndexErrorMessage) {

        private static RecordError read(ProtocolReader reader) {
            RecordError error = new RecordError(reader.readInt32(), reader.readNullableString());
            reader.readTaggedFields();
            return error;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(batchIndex);
            writer.writeNullableString(batchIndexErrorMessage);
            writer.writeTaggedFields();
        }
    }

    public ProduceResponse {
        responses = List.copyOf(responses);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ProduceResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<TopicResponse> responses = reader.readArray(r -> TopicResponse.read(r, version), 2);
        int throttleTimeMs = reader.readInt32();
        reader.readTaggedFields();
        return new ProduceResponse(responses, throttleTimeMs);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeArray(responses, (w, t) -> t.write(w, version));
        writer.writeInt32(throttleTimeMs);
        writer.writeTaggedFields();
    }
}
