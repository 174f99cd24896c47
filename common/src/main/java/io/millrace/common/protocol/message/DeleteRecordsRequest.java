package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DeleteRecords request (api key 21): move each partition's log start offset forward.
 *
 * <pre>
 * DeleteRecordsRequest => [topics] timeout_ms TAG_BUFFER
 *   topics => name [partitions] TAG_BUFFER
 *     name => STRING
 *     partitions => partition_index offset TAG_BUFFER
 *       partition_index => INT32
 *       offset          => INT64   records below it are deleted; -1 means the high watermark
 *   timeout_ms => INT32
 * </pre>
 *
 * Version 0 (the oldest supported) has every field. Version 1 has the same layout. Version 2 is
 * flexible.
 */
public record DeleteRecordsRequest(List<DeleteRecordsTopic> topics, int timeoutMs) implements ApiMessage {

    /** The offset that stands for the partition's high watermark. */
    public static final long HIGH_WATERMARK = -1L;

    private static final ApiKey API = ApiKey.DELETE_RECORDS;

    public record DeleteRecordsTopic(String name, List<DeleteRecordsPartition> partitions) {

        public DeleteRecordsTopic {
            partitions = List.copyOf(partitions);
        }

        private static DeleteRecordsTopic read(ProtocolReader reader) {
            DeleteRecordsTopic topic = new DeleteRecordsTopic(reader.readString(), reader.readArray(DeleteRecordsPartition::read, 12));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    public record DeleteRecordsPartition(int partitionIndex, long offset) {

        private static DeleteRecordsPartition read(ProtocolReader reader) {
            DeleteRecordsPartition partition = new DeleteRecordsPartition(reader.readInt32(), reader.readInt64());
            reader.readTaggedFields();
            return partition;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(partitionIndex);
            writer.writeInt64(offset);
            writer.writeTaggedFields();
        }
    }

    public DeleteRecordsRequest {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DeleteRecordsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<DeleteRecordsTopic> topics = reader.readArray(DeleteRecordsTopic::read, 3);
        int timeoutMs = reader.readInt32();
        reader.readTaggedFields();
        return new DeleteRecordsRequest(topics, timeoutMs);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeArray(topics, (w, t) -> t.write(w));
        writer.writeInt32(timeoutMs);
        writer.writeTaggedFields();
    }
}
