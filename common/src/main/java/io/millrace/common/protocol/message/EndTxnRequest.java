package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;

/**
 * EndTxn request (api key 26): a transactional producer asks its transaction coordinator to commit
 * or abort the ongoing transaction.
 *
 * <pre>
 * EndTxnRequest => transactional_id producer_id producer_epoch committed TAG_BUFFER
 *   transactional_id => STRING
 *   producer_id      => INT64
 *   producer_epoch   => INT16
 *   committed        => BOOLEAN   (true to commit, false to abort)
 * </pre>
 *
 * Versions 0 to 4 all have this layout: version 2 lets the coordinator answer PRODUCER_FENCED,
 * version 3 is flexible and version 4 lets it answer TRANSACTION_ABORTABLE. Not supported: version 5,
 * transaction protocol V2, whose coordinator bumps the producer epoch at the end of every
 * transaction; Kafka's Java client sends at most version 4 unless the broker enables that protocol.
 */
public record EndTxnRequest(String transactionalId, long producerId, short producerEpoch, boolean committed)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.END_TXN;

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static EndTxnRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        String transactionalId = reader.readString();
        long producerId = reader.readInt64();
        short producerEpoch = reader.readInt16();
        boolean committed = reader.readBool();
        reader.readTaggedFields();
        return new EndTxnRequest(transactionalId, producerId, producerEpoch, committed);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeString(transactionalId);
        writer.writeInt64(producerId);
        writer.writeInt16(producerEpoch);
        writer.writeBool(committed);
        writer.writeTaggedFields();
    }
}
