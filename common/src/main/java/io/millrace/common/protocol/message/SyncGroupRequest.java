package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * SyncGroup request (api key 14): after a join, every member asks for its assignment, and the
 * leader hands in the assignments it computed for all of them.
 *
 * <pre>
 * SyncGroupRequest => group_id generation_id member_id group_instance_id protocol_type protocol_name [assignments] TAG_BUFFER
 *   group_id          => STRING
 *   generation_id     => INT32
 *   member_id         => STRING
 *   group_instance_id => NULLABLE_STRING   (v3+, default null)
 *   protocol_type     => NULLABLE_STRING   (v5+, default null; e.g. "consumer")
 *   protocol_name     => NULLABLE_STRING   (v5+, default null; e.g. "range")
 *   assignments => member_id assignment TAG_BUFFER   (empty unless sent by the leader)
 *     member_id  => STRING
 *     assignment => BYTES   (opaque to the coordinator)
 * </pre>
 *
 * Versions 1 and 2 have the same layout as 0. Version 3 adds the static member's instance id,
 * version 4 is flexible, version 5 adds the protocol type and name, which the coordinator checks
 * against the group's.
 *
 * <p>Assignments are slices of the buffer the request was parsed from.
 */
public record SyncGroupRequest(String groupId, int generationId, String memberId, String groupInstanceId,
                               String protocolType, String protocolName, List<Assignment> assignments) implements ApiMessage {

    private static final ApiKey API = ApiKey.SYNC_GROUP;

    /** The leader's assignment for one member. */
    public record Assignment(String memberId, ByteBuffer assignment) {

        private static Assignment read(ProtocolReader reader) {
            Assignment assignment = new Assignment(reader.readString(), reader.readBytes());
            reader.readTaggedFields();
            return assignment;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(memberId);
            writer.writeBytes(assignment);
            writer.writeTaggedFields();
        }
    }

    public SyncGroupRequest {
        assignments = List.copyOf(assignments);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static SyncGroupRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        String groupId = reader.readString();
        int generationId = reader.readInt32();
        String memberId = reader.readString();
        String groupInstanceId = version >= 3 ? reader.readNullableString() : null;
        String protocolType = version >= 5 ? reader.readNullableString() : null;
        String protocolName = version >= 5 ? reader.readNullableString() : null;
        List<Assignment> assignments = reader.readArray(Assignment::read, 3);
        reader.readTaggedFields();
        return new SyncGroupRequest(groupId, generationId, memberId, groupInstanceId, protocolType, protocolName, assignments);
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
        if (version >= 5) {
            writer.writeNullableString(protocolType);
            writer.writeNullableString(protocolName);
        }
        writer.writeArray(assignments, (w, a) -> a.write(w));
        writer.writeTaggedFields();
    }
}
