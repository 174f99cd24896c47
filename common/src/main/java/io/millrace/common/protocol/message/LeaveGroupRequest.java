package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * LeaveGroup request (api key 13): members leave a group at once, without waiting for their
 * session to time out, so that the group rebalances without them right away.
 *
 * <pre>
 * LeaveGroupRequest v0-2 => group_id member_id
 * LeaveGroupRequest v3+  => group_id [members] TAG_BUFFER
 *   group_id  => STRING
 *   member_id => STRING   (v0-2: the one member leaving)
 *   members => member_id group_instance_id reason TAG_BUFFER   (v3+)
 *     member_id         => STRING
 *     group_instance_id => NULLABLE_STRING
 *     reason            => NULLABLE_STRING   (v5+, default null)
 * </pre>
 *
 * Versions 1 and 2 have the same layout as 0. Version 3 replaces the single member id with a
 * list of members, so that an administrator can remove static members by instance id. Version 4
 * is flexible, version 5 adds each member's reason for leaving.
 *
 * <p>A version carries either {@link #memberId()} or {@link #members()}; the other is left at
 * Kafka's default ("" or an empty list) and is not written.
 */
public record LeaveGroupRequest(String groupId, String memberId, List<Member> members) implements ApiMessage {

    private static final ApiKey API = ApiKey.LEAVE_GROUP;

    /** The first version with a list of members. */
    public static final short FIRST_BATCHED_VERSION = 3;

    /** One member leaving (v3+). */
    public record Member(String memberId, String groupInstanceId, String reason) {

        private static Member read(ProtocolReader reader, short version) {
            String memberId = reader.readString();
            String groupInstanceId = reader.readNullableString();
            String reason = version >= 5 ? reader.readNullableString() : null;
            reader.readTaggedFields();
            return new Member(memberId, groupInstanceId, reason);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(memberId);
            writer.writeNullableString(groupInstanceId);
            if (version >= 5) {
                writer.writeNullableString(reason);
            }
            writer.writeTaggedFields();
        }
    }

    public LeaveGroupRequest {
        members = List.copyOf(members);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static LeaveGroupRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        String groupId = reader.readString();
        String memberId = version < FIRST_BATCHED_VERSION ? reader.readString() : "";
        List<Member> members = version >= FIRST_BATCHED_VERSION ? reader.readArray(r -> Member.read(r, version), 3) : List.of();
        reader.readTaggedFields();
        return new LeaveGroupRequest(groupId, memberId, members);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeString(groupId);
        if (version < FIRST_BATCHED_VERSION) {
            writer.writeString(memberId);
        } else {
            writer.writeArray(members, (w, m) -> m.write(w, version));
        }
        writer.writeTaggedFields();
    }
}
