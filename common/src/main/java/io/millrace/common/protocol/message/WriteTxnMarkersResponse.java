package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * WriteTxnMarkers response (api key 27): an error code per partition, by producer.
 *
 * <pre>
 * WriteTxnMarkersResponse => [markers] TAG_BUFFER
 *   markers => producer_id [topics] TAG_BUFFER
 *     producer_id => INT64
 *     topics => name [partitions] TAG_BUFFER
 *       name       => COMPACT_STRING
 *       partitions => partition_index error_code TAG_BUFFER   (INT32, INT16)
 * </pre>
 *
 * Only version 1 (flexible) is supported, as for the request: version 0 is gone since Kafka 4.0
 * and version 2 only answers a version 2 request.
 */
public record WriteTxnMarkersResponse(List<MarkerResult> markers) implements ApiMessage {

    private static final ApiKey API = ApiKey.WRITE_TXN_MARKERS;

    /** The results of one producer's marker. */
    public record MarkerResult(long producerId, List<TopicResult> topics) {

        public MarkerResult {
            topics = List.copyOf(topics);
        }

        private static MarkerResult read(ProtocolReader reader) {
            long producerId = reader.readInt64();
            List<TopicResult> topics = reader.readArray(TopicResult::read, 3);
            reader.readTaggedFields();
            return new MarkerResult(producerId, topics);
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt64(producerId);
            writer.writeArray(topics, (w, t) -> t.write(w));
            writer.writeTaggedFields();
        }
    }

    /** One topic's results. */
    public record TopicResult(String name, List<PartitionResult> partitions) {

        public TopicResult {
            partitions = List.copyOf(partitions);
        }

        private static TopicResult read(ProtocolReader reader) {
            String name = reader.readString();
            List<PartitionResult> partitions = reader.readArray(PartitionResult::read, 7);
            reader.readTaggedFields();
            return new TopicResult(name, partitions);
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    /** Whether one partition got the marker. */
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

    public WriteTxnMarkersResponse {
        markers = List.copyOf(markers);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static WriteTxnMarkersResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<MarkerResult> markers = reader.readArray(MarkerResult::read, 10);
        reader.readTaggedFields();
        return new WriteTxnMarkersResponse(markers);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeArray(markers, (w, m) -> m.write(w));
        writer.writeTaggedFields();
    }
}
