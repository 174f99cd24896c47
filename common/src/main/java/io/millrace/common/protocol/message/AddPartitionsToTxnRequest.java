package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * AddPartitionsToTxn request (api key 24): a transactional producer tells its transaction
 * coordinator which partitions it is about to write to, before its first Produce to each.
 *
 * <pre>
 * AddPartitionsToTxnRequest => transactional_id producer_id producer_epoch [topics] TAG_BUFFER
 *   transactional_id => STRING
 *   producer_id      => INT64
 *   producer_epoch   => INT16
 *   topics => name [partitions] TAG_BUFFER
 *     name       => STRING
 *     partitions => INT32
 * </pre>
 *
 * Versions 1 and 2 have the same layout as 0 (2 lets the coordinator answer PRODUCER_FENCED);
 * version 3 is flexible. Only this client form is supported: versions 4 and 5 are the brokers'
 * batched form (several transactions per request, with a verify-only flag) and the error codes of
 * transaction protocol V2, which a client never sends.
 */
public record AddPartitionsToTxnRequest(String transactionalId, long producerId, short producerEpoch, List<Topic> topics)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.ADD_PARTITIONS_TO_TXN;

    /** The partitions of one topic to add to the transaction. */
    public record Topic(String name, List<Integer> partitions) {

        public Topic {
            partitions = List.copyOf(partitions);
        }

        private static Topic read(ProtocolReader reader) {
            String name = reader.readString();
            List<Integer> partitions = reader.readInt32Array();
            reader.readTaggedFields();
            return new Topic(name, partitions);
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeInt32Array(partitions);
            writer.writeTaggedFields();
        }
    }

    public AddPartitionsToTxnRequest {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static AddPartitionsToTxnRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        String transactionalId = reader.readString();
        long producerId = reader.readInt64();
        short producerEpoch = reader.readInt16();
        List<Topic> topics = reader.readArray(Topic::read, 3);
        reader.readTaggedFields();
        return new AddPartitionsToTxnRequest(transactionalId, producerId, producerEpoch, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeString(transactionalId);
        writer.writeInt64(producerId);
        writer.writeInt16(producerEpoch);
        writer.writeArray(topics, (w, t) -> t.write(w));
        writer.writeTaggedFields();
    }
}
