package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeProducers response (api key 61).
 *
 * <pre>
 * DescribeProducersResponse => throttle_time_ms [topics] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   topics => name [partitions] TAG_BUFFER
 *     partitions => partition_index error_code error_message [active_producers] TAG_BUFFER
 *       error_code    => INT16            NOT_LEADER_OR_FOLLOWER from a broker not leading it
 *       error_message => NULLABLE_STRING
 *       active_producers => producer_id producer_epoch last_sequence last_timestamp coordinator_epoch
 *                           current_txn_start_offset TAG_BUFFER
 *         producer_id              => INT64
 *         producer_epoch           => INT32
 *         last_sequence            => INT32   -1 before its first batch
 *         last_timestamp           => INT64   its last batch's max timestamp, -1 before its first batch
 *         coordinator_epoch        => INT32   -1 for a producer without transactions
 *         current_txn_start_offset => INT64   -1 with no open transaction
 * </pre>
 */
public record DescribeProducersResponse(int throttleTimeMs, List<TopicResponse> topics) implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_PRODUCERS;

    /** One topic's partitions. */
    public record TopicResponse(String name, List<PartitionResponse> partitions) {

        public TopicResponse {
            partitions = List.copyOf(partitions);
        }

        private static TopicResponse read(ProtocolReader reader) {
            TopicResponse topic = new TopicResponse(reader.readString(), reader.readArray(PartitionResponse::read, 9));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    /** One partition's producers, or why they cannot be told. */
    public record PartitionResponse(int partitionIndex, short errorCode, String errorMessage,
                                    List<ProducerState> activeProducers) {

        public PartitionResponse {
            activeProducers = List.copyOf(activeProducers);
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static PartitionResponse read(ProtocolReader reader) {
            PartitionResponse partition = new PartitionResponse(reader.readInt32(), reader.readInt16(),
                reader.readNullableString(), reader.readArray(ProducerState::read, 33));
            reader.readTaggedFields();
            return partition;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(partitionIndex);
            writer.writeInt16(errorCode);
            writer.writeNullableString(errorMessage);
            writer.writeArray(activeProducers, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    /** What the partition remembers of one producer. */
    public record ProducerState(long producerId, int producerEpoch, int lastSequence, long lastTimestamp,
                                int coordinatorEpoch, long currentTxnStartOffset) {

        private static ProducerState read(ProtocolReader reader) {
            ProducerState state = new ProducerState(reader.readInt64(), reader.readInt32(), reader.readInt32(),
                reader.readInt64(), reader.readInt32(), reader.readInt64());
            reader.readTaggedFields();
            return state;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt64(producerId);
            writer.writeInt32(producerEpoch);
            writer.writeInt32(lastSequence);
            writer.writeInt64(lastTimestamp);
            writer.writeInt32(coordinatorEpoch);
            writer.writeInt64(currentTxnStartOffset);
            writer.writeTaggedFields();
        }
    }

    public DescribeProducersResponse {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeProducersResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        DescribeProducersResponse response = new DescribeProducersResponse(reader.readInt32(),
            reader.readArray(TopicResponse::read, 3));
        reader.readTaggedFields();
        return response;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(topics, (w, t) -> t.write(w));
        writer.writeTaggedFields();
    }
}
