package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;

/**
 * AddOffsetsToTxn request (api key 25): a transactional producer tells its transaction coordinator
 * that the transaction will commit offsets of a consumer group, before its TxnOffsetCommit to the
 * group's coordinator.
 *
 * <pre>
 * AddOffsetsToTxnRequest => transactional_id producer_id producer_epoch group_id TAG_BUFFER
 *   transactional_id => STRING
 *   producer_id      => INT64
 *   producer_epoch   => INT16
 *   group_id         => STRING
 * </pre>
 *
 * Every version has this layout: version 2 lets the coordinator answer PRODUCER_FENCED, version 3
 * is flexible and version 4 lets it answer TRANSACTION_ABORTABLE. All of them (0 to 4) are
 * supported, which is every version Kafka defines.
 */
public record AddOffsetsToTxnRequest(String transactionalId, long producerId, short producerEpoch, String groupId)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.ADD_OFFSETS_TO_TXN;

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static AddOffsetsToTxnRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        String transactionalId = reader.readString();
        long producerId = reader.readInt64();
        short producerEpoch = reader.readInt16();
        String groupId = reader.readString();
        reader.readTaggedFields();
        return new AddOffsetsToTxnRequest(transactionalId, producerId, producerEpoch, groupId);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeString(transactionalId);
        writer.writeInt64(producerId);
        writer.writeInt16(producerEpoch);
        writer.writeString(groupId);
        writer.writeTaggedFields();
    }
}
