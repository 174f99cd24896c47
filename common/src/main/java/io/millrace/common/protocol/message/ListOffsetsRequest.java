package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * ListOffsets request (api key 2): the offset for a timestamp in each partition.
 *
 * <pre>
 * ListOffsetsRequest => replica_id isolation_level [topics] TAG_BUFFER
 *   replica_id      => INT32      (-1 for consumers)
 *   isolation_level => INT8       (v2+)
 *   topics => name [partitions] TAG_BUFFER
 *     name => STRING
 *     partitions => partition_index current_leader_epoch timestamp TAG_BUFFER
 *       partition_index      => INT32
 *       current_leader_epoch => INT32   (v4+)
 *       timestamp            => INT64   (a time in ms, or one of the special values below)
 * </pre>
 *
 * Version 1 (the oldest supported) asks for one offset per partition. Version 2 adds the isolation
 * level, 3 has the same layout, 4 adds the current leader epoch, 5 the same layout, 6 is flexible.
 * Version 7 allows {@link #MAX_TIMESTAMP} and version 8 {@link #EARLIEST_LOCAL_TIMESTAMP}; both have
 * the same layout as 6. Not supported: version 9 (last tiered offset) and later.
 */
public record ListOffsetsRequest(int replicaId, byte isolationLevel, List<ListOffsetsTopic> topics) implements ApiMessage {

    /** The offset after the last record (the log end offset, or the last stable one). */
    public static final long LATEST_TIMESTAMP = -1L;
    /** The log start offset. */
    public static final long EARLIEST_TIMESTAMP = -2L;
    /** The offset of the record with the largest timestamp (v7+). */
    public static final long MAX_TIMESTAMP = -3L;
    /** The start of the local log (v8+); without tiered storage, the log start offset. */
    public static final long EARLIEST_LOCAL_TIMESTAMP = -4L;

    private static final ApiKey API = ApiKey.LIST_OFFSETS;

    public record ListOffsetsTopic(String name, List<ListOffsetsPartition> partitions) {

        public ListOffsetsTopic {
            partitions = List.copyOf(partitions);
        }

        private static ListOffsetsTopic read(ProtocolReader reader, short version) {
            ListOffsetsTopic topic = new ListOffsetsTopic(reader.readString(),
                reader.readArray(r -> ListOffsetsPartition.read(r, version), 12));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w, version));
            writer.writeTaggedFields();
        }
    }

    public record ListOffsetsPartition(int partitionIndex, int currentLeaderEpoch, long timestamp) {

        private static ListOffsetsPartition read(ProtocolReader reader, short version) {
            int partitionIndex = reader.readInt32();
            int currentLeaderEpoch = version >= 4 ? reader.readInt32() : -1;
            ListOffsetsPartition partition = new ListOffsetsPartition(partitionIndex, currentLeaderEpoch, reader.readInt64());
            reader.readTaggedFields();
            return partition;
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeInt32(partitionIndex);
            if (version >= 4) {
                writer.writeInt32(currentLeaderEpoch);
            }
            writer.writeInt64(timestamp);
            writer.writeTaggedFields();
        }
    }

    public ListOffsetsRequest {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ListOffsetsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int replicaId = reader.readInt32();
        byte isolationLevel = version >= 2 ? reader.readInt8() : 0;
        List<ListOffsetsTopic> topics = reader.readArray(r -> ListOffsetsTopic.read(r, version), 2);
        reader.readTaggedFields();
        return new ListOffsetsRequest(replicaId, isolationLevel, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(replicaId);
        if (version >= 2) {
            writer.writeInt8(isolationLevel);
        }
        writer.writeArray(topics, (w, t) -> t.write(w, version));
        writer.writeTaggedFields();
    }
}
