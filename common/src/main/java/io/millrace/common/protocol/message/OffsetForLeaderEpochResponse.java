package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * OffsetForLeaderEpoch response (api key 23).
 *
 * <pre>
 * OffsetForLeaderEpochResponse => throttle_time_ms [topics] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   topics => topic [partitions] TAG_BUFFER
 *     topic => STRING
 *     partitions => error_code partition leader_epoch end_offset TAG_BUFFER
 *       error_code   => INT16
 *       partition    => INT32
 *       leader_epoch => INT32   the largest epoch at or below the one asked for; -1 when undefined
 *       end_offset   => INT64   the offset after that epoch's last record; -1 when undefined
 * </pre>
 *
 * Version 2 (the oldest supported, as in Kafka 4) has the throttle time and the leader epoch.
 * Version 3 has the same layout. Version 4 is flexible.
 */
public record OffsetForLeaderEpochResponse(int throttleTimeMs, List<OffsetForLeaderTopicResult> topics) implements ApiMessage {

    /** Kafka's UNDEFINED_EPOCH: no such epoch is known. */
    public static final int UNDEFINED_EPOCH = -1;
    /** Kafka's UNDEFINED_EPOCH_OFFSET: no end offset is known. */
    public static final long UNDEFINED_EPOCH_OFFSET = -1L;

    private static final ApiKey API = ApiKey.OFFSET_FOR_LEADER_EPOCH;

    public record OffsetForLeaderTopicResult(String topic, List<EpochEndOffset> partitions) {

        public OffsetForLeaderTopicResult {
            partitions = List.copyOf(partitions);
        }

        private static OffsetForLeaderTopicResult read(ProtocolReader reader) {
            OffsetForLeaderTopicResult topic = new OffsetForLeaderTopicResult(reader.readString(),
                reader.readArray(EpochEndOffset::read, 18));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(topic);
            writer.writeArray(partitions, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    public record EpochEndOffset(short errorCode, int partition, int leaderEpoch, long endOffset) {

        /** An error answer, with the undefined epoch and offset. */
        public static EpochEndOffset error(int partition, Errors error) {
            return new EpochEndOffset(error.code(), partition, UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET);
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static EpochEndOffset read(ProtocolReader reader) {
            EpochEndOffset result = new EpochEndOffset(reader.readInt16(), reader.readInt32(), reader.readInt32(),
                reader.readInt64());
            reader.readTaggedFields();
            return result;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt16(errorCode);
            writer.writeInt32(partition);
            writer.writeInt32(leaderEpoch);
            writer.writeInt64(endOffset);
            writer.writeTaggedFields();
        }
    }

    public OffsetForLeaderEpochResponse {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static OffsetForLeaderEpochResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        List<OffsetForLeaderTopicResult> topics = reader.readArray(OffsetForLeaderTopicResult::read, 3);
        reader.readTaggedFields();
        return new OffsetForLeaderEpochResponse(throttleTimeMs, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(topics, (w, t) -> t.write(w));
        writer.writeTaggedFields();
    }
}
