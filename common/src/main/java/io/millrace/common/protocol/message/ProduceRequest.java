package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import io.millrace.common.protocol.types.RecordsPayload;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Produce request (api key 0): record batches to append, per topic-partition.
 *
 * <pre>
 * ProduceRequest => transactional_id acks timeout_ms [topic_data] TAG_BUFFER
 *   transactional_id => NULLABLE_STRING
 *   acks             => INT16      (0: no response, 1: leader, -1: all in-sync replicas)
 *   timeout_ms       => INT32
 *   topic_data => name [partition_data] TAG_BUFFER
 *     name => STRING
 *     partition_data => index records TAG_BUFFER
 *       index   => INT32
 *       records => RECORDS         (nullable bytes: record batches v2)
 * </pre>
 *
 * Version 3 (the oldest supported) adds the transactional id and record batch v2. Versions 4 to 6
 * have the same layout (4: the client handles KAFKA_STORAGE_ERROR; 5: the response has the log
 * start offset). Version 7 allows zstd. Version 8 adds per-record errors to the response.
 * Version 9 is flexible. Versions 10 and 11 have the same layout (10: leader hints in the response;
 * 11: TRANSACTION_ABORTABLE). Not supported: version 12, which implies transaction protocol V2, and
 * version 13, which names topics by id.
 *
 * <p>Each partition's records are a slice of the request buffer, neither copied nor parsed: the
 * broker validates the batches and appends them. The slice is writable and shares the request's
 * bytes, so the broker can assign offsets in place.
 */
public record ProduceRequest(String transactionalId, short acks, int timeoutMs, List<TopicData> topicData)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.PRODUCE;

    public record TopicData(String name, List<PartitionData> partitionData) {

        public TopicData {
            partitionData = List.copyOf(partitionData);
        }

        private static TopicData read(ProtocolReader reader) {
            TopicData topic = new TopicData(reader.readString(), reader.readArray(PartitionData::read, 5));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeArray(partitionData, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    /** One partition's batches; {@code records} is null only if the client sent a null field. */
    public record PartitionData(int index, ByteBuffer records) {

        private static PartitionData read(ProtocolReader reader) {
            PartitionData partition = new PartitionData(reader.readInt32(), reader.readRecords());
            reader.readTaggedFields();
            return partition;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(index);
            // as a payload, not as bytes: a client's frame then carries the batch as it is, where
            // copying it into the frame's protocol buffer cost a producer a copy of every byte it sent
            writer.writeRecords(records == null ? null : RecordsPayload.of(records));
            writer.writeTaggedFields();
        }
    }

    public ProduceRequest {
        topicData = List.copyOf(topicData);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ProduceRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        String transactionalId = reader.readNullableString();
        short acks = reader.readInt16();
        int timeoutMs = reader.readInt32();
        List<TopicData> topics = reader.readArray(TopicData::read, 2);
        reader.readTaggedFields();
        return new ProduceRequest(transactionalId, acks, timeoutMs, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeNullableString(transactionalId);
        writer.writeInt16(acks);
        writer.writeInt32(timeoutMs);
        writer.writeArray(topicData, (w, t) -> t.write(w));
        writer.writeTaggedFields();
    }
}
