package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;

/**
 * SyncGroup response (api key 14): the member's own assignment.
 *
 * <pre>
 * SyncGroupResponse => throttle_time_ms error_code protocol_type protocol_name assignment TAG_BUFFER
 *   throttle_time_ms => INT32             (v1+, default 0)
 *   error_code       => INT16
 *   protocol_type    => NULLABLE_STRING   (v5+, default null)
 *   protocol_name    => NULLABLE_STRING   (v5+, default null)
 *   assignment       => BYTES             (empty on error)
 * </pre>
 *
 * Version 1 adds the throttle time. Versions 2 and 3 have the same layout. Version 4 is
 * flexible, version 5 adds the group's protocol type and name.
 */
public record SyncGroupResponse(int throttleTimeMs, short errorCode, String protocolType, String protocolName,
                                ByteBuffer assignment) implements ApiMessage {

    private static final ApiKey API = ApiKey.SYNC_GROUP;

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static SyncGroupResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = version >= 1 ? reader.readInt32() : 0;
        short errorCode = reader.readInt16();
        String protocolType = version >= 5 ? reader.readNullableString() : null;
        String protocolName = version >= 5 ? reader.readNullableString() : null;
        ByteBuffer assignment = reader.readBytes();
        reader.readTaggedFields();
        return new SyncGroupResponse(throttleTimeMs, errorCode, protocolType, protocolName, assignment);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 1) {
            writer.writeInt32(throttleTimeMs);
        }
        writer.writeInt16(errorCode);
        if (version >= 5) {
            writer.writeNullableString(protocolType);
            writer.writeNullableString(protocolName);
        }
        writer.writeBytes(assignment);
        writer.writeTaggedFields();
    }
}
