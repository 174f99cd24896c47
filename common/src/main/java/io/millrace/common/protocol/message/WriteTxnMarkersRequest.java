package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * WriteTxnMarkers request (api key 27): a transaction coordinator asks the leaders of a
 * transaction's partitions to append its commit or abort marker. Sent between brokers only.
 *
 * <pre>
 * WriteTxnMarkersRequest => [markers] TAG_BUFFER
 *   markers => producer_id producer_epoch transaction_result [topics] coordinator_epoch TAG_BUFFER
 *     producer_id        => INT64
 *     producer_epoch     => INT16
 *     transaction_result => BOOLEAN   (true: COMMIT, false: ABORT)
 *     topics => name [partition_indexes] TAG_BUFFER
 *       name              => COMPACT_STRING
 *       partition_indexes => INT32
 *     coordinator_epoch  => INT32
 * </pre>
 *
 * Only version 1, which is flexible, is supported: Kafka 4.0 removed version 0, and version 2 adds
 * the transaction protocol version of each marker (V2 markers), which Millrace does not write.
 */
public record WriteTxnMarkersRequest(List<Marker> markers) implements ApiMessage {

    private static final ApiKey API = ApiKey.WRITE_TXN_MARKERS;

    /** The marker that ends one producer's transaction, and the partitions to append it to. */
    public record Marker(long producerId, short producerEpoch, boolean committed, List<Topic> topics,
                         int coordinatorEpoch) {

        public Marker {
            topics = List.copyOf(topics);
        }

        private static Marker read(ProtocolReader reader) {
            long producerId = reader.readInt64();
            short producerEpoch = reader.readInt16();
            boolean committed = reader.readBool();
            List<Topic> topics = reader.readArray(Topic::read, 3);
            int coordinatorEpoch = reader.readInt32();
            reader.readTaggedFields();
            return new Marker(producerId, producerEpoch, committed, topics, coordinatorEpoch);
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt64(producerId);
            writer.writeInt16(producerEpoch);
            writer.writeBool(committed);
            writer.writeArray(topics, (w, t) -> t.write(w));
            writer.writeInt32(coordinatorEpoch);
            writer.writeTaggedFields();
        }
    }

    /** The partitions of one topic that get the marker. */
    public record Topic(String name, List<Integer> partitionIndexes) {

        public Topic {
            partitionIndexes = List.copyOf(partitionIndexes);
        }

        private static Topic read(ProtocolReader reader) {
            String name = reader.readString();
            List<Integer> partitionIndexes = reader.readInt32Array();
            reader.readTaggedFields();
            return new Topic(name, partitionIndexes);
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeInt32Array(partitionIndexes);
            writer.writeTaggedFields();
        }
    }

    public WriteTxnMarkersRequest {
        markers = List.copyOf(markers);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static WriteTxnMarkersRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<Marker> markers = reader.readArray(Marker::read, 17);
        reader.readTaggedFields();
        return new WriteTxnMarkersRequest(markers);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeArray(markers, (w, m) -> m.write(w));
        writer.writeTaggedFields();
    }
}
