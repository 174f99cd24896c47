package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;

/**
 * InitProducerId request (api key 22): a producer id and epoch for an idempotent or
 * transactional producer.
 *
 * <pre>
 * InitProducerIdRequest => transactional_id transaction_timeout_ms producer_id producer_epoch TAG_BUFFER
 *   transactional_id       => NULLABLE_STRING
 *   transaction_timeout_ms => INT32
 *   producer_id            => INT64   (v3+, default -1)
 *   producer_epoch         => INT16   (v3+, default -1)
 * </pre>
 *
 * Version 1 has the same layout as 0. Version 2 is flexible. Version 3 adds the current producer
 * id and epoch. Versions 4 and 5 have the same layout (new error codes). Not supported: version 6
 * (two-phase commit), which Kafka itself marks unstable.
 *
 * <p>Why Millrace needs it: Kafka's Java producer (3.2+) is idempotent by default and sends this
 * request before its first Produce; if the broker does not list the api it fails with "The broker
 * does not support INIT_PRODUCER_ID". The broker answers a null transactional id with a fresh,
 * unique producer id and epoch 0 (it does not deduplicate by sequence yet; see docs/protocol.md),
 * and a non-null one with TRANSACTIONAL_ID_AUTHORIZATION_FAILED: there are no transactions.
 */
public record InitProducerIdRequest(String transactionalId, int transactionTimeoutMs, long producerId,
                                    short producerEpoch) implements ApiMessage {

    private static final ApiKey API = ApiKey.INIT_PRODUCER_ID;

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static InitProducerIdRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        String transactionalId = reader.readNullableString();
        int transactionTimeoutMs = reader.readInt32();
        long producerId = version >= 3 ? reader.readInt64() : -1L;
        short producerEpoch = version >= 3 ? reader.readInt16() : -1;
        reader.readTaggedFields();
        return new InitProducerIdRequest(transactionalId, transactionTimeoutMs, producerId, producerEpoch);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeNullableString(transactionalId);
        writer.writeInt32(transactionTimeoutMs);
        if (version >= 3) {
            writer.writeInt64(producerId);
            writer.writeInt16(producerEpoch);
        }
        writer.writeTaggedFields();
    }
}
