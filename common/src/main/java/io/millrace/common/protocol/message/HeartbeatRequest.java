package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;

/**
 * Heartbeat request (api key 12): a group member tells its coordinator it is alive, and learns
 * from the answer whether the group is rebalancing.
 *
 * <pre>
 * HeartbeatRequest => group_id generation_id member_id group_instance_id TAG_BUFFER
 *   group_id          => STRING
 *   generation_id     => INT32
 *   member_id         => STRING
 *   group_instance_id => NULLABLE_STRING   (v3+, default null: a dynamic member)
 * </pre>
 *
 * Versions 1 and 2 have the same layout as 0. Version 3 adds the static member's instance id,
 * version 4 is flexible.
 */
public record HeartbeatRequest(String groupId, int generationId, String memberId, String groupInstanceId)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.HEARTBEAT;

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static HeartbeatRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        String groupId = reader.readString();
        int generationId = reader.readInt32();
        String memberId = reader.readString();
        String groupInstanceId = version >= 3 ? reader.readNullableString() : null;
        reader.readTaggedFields();
        return new HeartbeatRequest(groupId, generationId, memberId, groupInstanceId);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeString(groupId);
        writer.writeInt32(generationId);
        writer.writeString(memberId);
        if (version >= 3) {
            writer.writeNullableString(groupInstanceId);
        }
        writer.writeTaggedFields();
    }
}
