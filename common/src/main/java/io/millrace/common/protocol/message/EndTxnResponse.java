package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;

/**
 * EndTxn response (api key 26).
 *
 * <pre>
 * EndTxnResponse => throttle_time_ms error_code TAG_BUFFER
 *   throttle_time_ms => INT32
 *   error_code       => INT16
 * </pre>
 *
 * Versions 0 to 4 all have this layout; 3 and 4 are flexible. Version 5 (transaction protocol V2)
 * adds the producer id and epoch the coordinator bumped to, and is not supported.
 */
public record EndTxnResponse(int throttleTimeMs, short errorCode) implements ApiMessage {

    private static final ApiKey API = ApiKey.END_TXN;

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static EndTxnResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        EndTxnResponse response = new EndTxnResponse(reader.readInt32(), reader.readInt16());
        reader.readTaggedFields();
        return response;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeInt16(errorCode);
        writer.writeTaggedFields();
    }
}
