package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * ListOffsets response (api key 2).
 *
 * <pre>
 * ListOffsetsResponse => throttle_time_ms [topics] TAG_BUFFER
 *   throttle_time_ms => INT32        (v2+)
 *   topics => name [partitions] TAG_BUFFER
 *     name => STRING
 *     partitions => partition_index error_code timestamp offset leader_epoch TAG_BUFFER
 *       partition_index => INT32
 *       error_code      => INT16
 *       timestamp       => INT64     (-1 when not asked by time)
 *       offset          => INT64     (-1 when there is none)
 *       leader_epoch    => INT32     (v4+)
 * </pre>
 *
 * Version 1 (the oldest supported) returns one offset and its timestamp. Version 2 adds the
 * throttle time, 3 the same layout, 4 the leader epoch, 5 may return OFFSET_NOT_AVAILABLE,
 * 6 is flexible, 7 and 8 have the same layout.
 */
public record ListOffsetsResponse(int throttleTimeMs, List<ListOffsetsTopicResponse> topics) implements ApiMessage {

    private static final ApiKey API = ApiKey.LIST_OFFSETS;

    public record ListOffsetsTopicResponse(String name, List<ListOffsetsPartitionResponse> partitions) {

        public ListOffsetsTopicResponse {
            partitions = List.copyOf(partitions);
        }

        private static ListOffsetsTopicResponse read(ProtocolReader reader, short version) {
            ListOffsetsTopicResponse topic = new ListOffsetsTopicResponse(reader.readString(),
                reader.readArray(r -> ListOffsetsPartitionResponse.read(r, version), 22));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w, version));
            writer.writeTaggedFields();
        }
    }

    public record ListOffsetsPartitionResponse(int partitionIndex, short errorCode, long timestamp, long offset,
                                               int leaderEpoch) {

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static ListOffsetsPartitionResponse read(ProtocolReader reader, short version) {
            int partitionIndex = reader.readInt32();
            short errorCode = reader.readInt16();
            long timestamp = reader.readInt64();
            long offset = reader.readInt64();
            int leaderEpoch = version >= 4 ? reader.readInt32() : -1;
            reader.readTaggedFields();
            return new ListOffsetsPartitionResponse(partitionIndex, errorCode, timestamp, offset, leaderEpoch);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeInt32(partitionIndex);
            writer.writeInt16(errorCode);
            writer.writeInt64(timestamp);
            writer.writeInt64(offset);
            if (version >= 4) {
                writer.writeInt32(leaderEpoch);
            }
            writer.writeTaggedFields();
        }
    }

    public ListOffsetsResponse {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ListOffsetsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = version >= 2 ? reader.readInt32() : 0;
        List<ListOffsetsTopicResponse> topics = reader.readArray(r -> ListOffsetsTopicResponse.read(r, version), 2);
        reader.readTaggedFields();
        return new ListOffsetsResponse(throttleTimeMs, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 2) {
            writer.writeInt32(throttleTimeMs);
        }
        writer.writeArray(topics, (w, t) -> t.write(w, version));
        writer.writeTaggedFields();
    }
}
