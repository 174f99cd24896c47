package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;

/**
 * Heartbeat response (api key 12). REBALANCE_IN_PROGRESS tells the member to join again.
 *
 * <pre>
 * HeartbeatResponse => throttle_time_ms error_code TAG_BUFFER
 *   throttle_time_ms => INT32   (v1+, default 0)
 *   error_code       => INT16
 * </pre>
 *
 * Version 1 adds the throttle time. Versions 2 and 3 have the same layout, version 4 is flexible.
 */
public record HeartbeatResponse(int throttleTimeMs, short errorCode) implements ApiMessage {

    private static final ApiKey API = ApiKey.HEARTBEAT;

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static HeartbeatResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = version >= 1 ? reader.readInt32() : 0;
        short errorCode = reader.readInt16();
        reader.readTaggedFields();
        return new HeartbeatResponse(throttleTimeMs, errorCode);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 1) {
            writer.writeInt32(throttleTimeMs);
        }
        writer.writeInt16(errorCode);
        writer.writeTaggedFields();
    }
}
