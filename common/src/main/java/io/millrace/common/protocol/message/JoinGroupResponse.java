package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * JoinGroup response (api key 11): the generation the member joined, the protocol chosen, the
 * leader, and for the leader alone every member's metadata, from which it computes the assignment.
 *
 * <pre>
 * JoinGroupResponse => throttle_time_ms error_code generation_id protocol_type protocol_name leader skip_assignment member_id [members] TAG_BUFFER
 *   throttle_time_ms => INT32             (v2+, default 0)
 *   error_code       => INT16
 *   generation_id    => INT32             (-1 on error)
 *   protocol_type    => NULLABLE_STRING   (v7+, default null)
 *   protocol_name    => STRING            (NULLABLE_STRING from v7)
 *   leader           => STRING
 *   skip_assignment  => BOOLEAN           (v9+: a static leader rejoining keeps the current assignment)
 *   member_id        => STRING
 *   members => member_id group_instance_id metadata TAG_BUFFER   (empty unless answering the leader)
 *     member_id         => STRING
 *     group_instance_id => NULLABLE_STRING   (v5+, default null)
 *     metadata          => BYTES
 * </pre>
 *
 * Version 1 has the same layout as 0. Version 2 adds the throttle time. Versions 3 and 4 have the
 * same layout. Version 5 adds the members' instance ids, version 6 is flexible. Version 7 adds the
 * protocol type and makes the protocol name nullable. Version 8 has the same layout, version 9 adds
 * skip_assignment.
 */
public record JoinGroupResponse(int throttleTimeMs, short errorCode, int generationId, String protocolType,
                                String protocolName, String leader, boolean skipAssignment, String memberId,
                                List<Member> members) implements ApiMessage {

    private static final ApiKey API = ApiKey.JOIN_GROUP;

    /** A member as the leader sees it. */
    public record Member(String memberId, String groupInstanceId, ByteBuffer metadata) {

        private static Member read(ProtocolReader reader, short version) {
            String memberId = reader.readString();
            String groupInstanceId = version >= 5 ? reader.readNullableString() : null;
            Member member = new Member(memberId, groupInstanceId, reader.readBytes());
            reader.readTaggedFields();
            return member;
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(memberId);
            if (version >= 5) {
                writer.writeNullableString(groupInstanceId);
            }
            writer.writeBytes(metadata);
            writer.writeTaggedFields();
        }
    }

    public JoinGroupResponse {
        members = List.copyOf(members);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static JoinGroupResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = version >= 2 ? reader.readInt32() : 0;
        short errorCode = reader.readInt16();
        int generationId = reader.readInt32();
        String protocolType = version >= 7 ? reader.readNullableString() : null;
        String protocolName = version >= 7 ? reader.readNullableString() : reader.readString();
        String leader = reader.readString();
        boolean skipAssignment = version >= 9 && reader.readBool();
        String memberId = reader.readString();
        List<Member> members = reader.readArray(r -> Member.read(r, version), 3);
        reader.readTaggedFields();
        return new JoinGroupResponse(throttleTimeMs, errorCode, generationId, protocolType, protocolName, leader,
            skipAssignment, memberId, members);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 2) {
            writer.writeInt32(throttleTimeMs);
        }
        writer.writeInt16(errorCode);
        writer.writeInt32(generationId);
        if (version >= 7) {
            writer.writeNullableString(protocolType);
            writer.writeNullableString(protocolName);
        } else {
            writer.writeString(protocolName);
        }
        writer.writeString(leader);
        if (version >= 9) {
            writer.writeBool(skipAssignment);
        }
        writer.writeString(memberId);
        writer.writeArray(members, (w, m) -> m.write(w, version));
        writer.writeTaggedFields();
    }
}
