package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * ListGroups response (api key 16).
 *
 * <pre>
 * ListGroupsResponse => throttle_time_ms error_code [groups] TAG_BUFFER
 *   throttle_time_ms => INT32   (v1+, default 0)
 *   error_code       => INT16
 *   groups => group_id protocol_type group_state group_type TAG_BUFFER
 *     group_id      => STRING
 *     protocol_type => STRING   ("consumer", "connect", ...; "" for a group of the new protocol)
 *     group_state   => STRING   (v4+, default "")
 *     group_type    => STRING   (v5+, default "")
 * </pre>
 *
 * Version 1 adds the throttle time. Version 2 has the same layout, version 3 is flexible, version 4
 * adds each group's state and version 5 its type.
 */
public record ListGroupsResponse(int throttleTimeMs, short errorCode, List<Group> groups) implements ApiMessage {

    private static final ApiKey API = ApiKey.LIST_GROUPS;

    /** One group the broker coordinates. */
    public record Group(String groupId, String protocolType, String groupState, String groupType) {

        private static Group read(ProtocolReader reader, short version) {
            String groupId = reader.readString();
            String protocolType = reader.readString();
            String groupState = version >= 4 ? reader.readString() : "";
            String groupType = version >= 5 ? reader.readString() : "";
            reader.readTaggedFields();
            return new Group(groupId, protocolType, groupState, groupType);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(groupId);
            writer.writeString(protocolType);
            if (version >= 4) {
                writer.writeString(groupState);
            }
            if (version >= 5) {
                writer.writeString(groupType);
            }
            writer.writeTaggedFields();
        }
    }

    public ListGroupsResponse {
        groups = List.copyOf(groups);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ListGroupsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = version >= 1 ? reader.readInt32() : 0;
        short errorCode = reader.readInt16();
        List<Group> groups = reader.readArray(r -> Group.read(r, version), 3);
        reader.readTaggedFields();
        return new ListGroupsResponse(throttleTimeMs, errorCode, groups);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 1) {
            writer.writeInt32(throttleTimeMs);
        }
        writer.writeInt16(errorCode);
        writer.writeArray(groups, (w, g) -> g.write(w, version));
        writer.writeTaggedFields();
    }
}
