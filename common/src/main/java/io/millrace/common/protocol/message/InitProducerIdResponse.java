package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;

/**
 * InitProducerId response (api key 22).
 *
 * <pre>
 * InitProducerIdResponse => throttle_time_ms error_code producer_id producer_epoch TAG_BUFFER
 *   throttle_time_ms => INT32
 *   error_code       => INT16
 *   producer_id      => INT64   (-1 on error)
 *   producer_epoch   => INT16
 * </pre>
 *
 * The layout is the same in every supported version; version 2 makes it flexible.
 */
public record InitProducerIdResponse(int throttleTimeMs, short errorCode, long producerId, short producerEpoch)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.INIT_PRODUCER_ID;

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static InitProducerIdResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        InitProducerIdResponse response = new InitProducerIdResponse(reader.readInt32(), reader.readInt16(),
            reader.readInt64(), reader.readInt16());
        reader.readTaggedFields();
        return response;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeInt16(errorCode);
        writer.writeInt64(producerId);
        writer.writeInt16(producerEpoch);
        writer.writeTaggedFields();
    }
}
