package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * LeaveGroup response (api key 13).
 *
 * <pre>
 * LeaveGroupResponse => throttle_time_ms error_code [members] TAG_BUFFER
 *   throttle_time_ms => INT32   (v1+, default 0)
 *   error_code       => INT16   (the whole request's error)
 *   members => member_id group_instance_id error_code TAG_BUFFER   (v3+, one per member asked)
 *     member_id         => STRING
 *     group_instance_id => NULLABLE_STRING
 *     error_code        => INT16
 * </pre>
 *
 * Version 1 adds the throttle time. Version 2 has the same layout. Version 3 adds a result per
 * member, version 4 is flexible, version 5 has the same layout.
 */
public record LeaveGroupResponse(int throttleTimeMs, short errorCode, List<MemberResult> members) implements ApiMessage {

    private static final ApiKey API = ApiKey.LEAVE_GROUP;

    /** Whether one member left (v3+). */
    public record MemberResult(String memberId, String groupInstanceId, short errorCode) {

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static MemberResult read(ProtocolReader reader) {
            MemberResult result = new MemberResult(reader.readString(), reader.readNullableString(), reader.readInt16());
            reader.readTaggedFields();
            return result;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(memberId);
            writer.writeNullableString(groupInstanceId);
            writer.writeInt16(errorCode);
            writer.writeTaggedFields();
        }
    }

    public LeaveGroupResponse {
        members = List.copyOf(members);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static LeaveGroupResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = version >= 1 ? reader.readInt32() : 0;
        short errorCode = reader.readInt16();
        List<MemberResult> members = version >= LeaveGroupRequest.FIRST_BATCHED_VERSION
            ? reader.readArray(MemberResult::read, 4) : List.of();
        reader.readTaggedFields();
        return new LeaveGroupResponse(throttleTimeMs, errorCode, members);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 1) {
            writer.writeInt32(throttleTimeMs);
        }
        writer.writeInt16(errorCode);
        if (version >= LeaveGroupRequest.FIRST_BATCHED_VERSION) {
            writer.writeArray(members, (w, m) -> m.write(w));
        }
        writer.writeTaggedFields();
    }
}
