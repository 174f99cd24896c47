package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeGroups response (api key 15).
 *
 * <pre>
 * DescribeGroupsResponse => throttle_time_ms [groups] TAG_BUFFER
 *   throttle_time_ms => INT32   (v1+, default 0)
 *   groups => error_code error_message group_id group_state protocol_type protocol_data [members] authorized_operations TAG_BUFFER
 *     error_code            => INT16
 *     error_message         => NULLABLE_STRING   (v6+, default null)
 *     group_id              => STRING
 *     group_state           => STRING   ("Stable", "PreparingRebalance", "Dead", ...)
 *     protocol_type         => STRING   ("consumer", ...)
 *     protocol_data         => STRING   (the chosen protocol, e.g. "range"; "" while rebalancing)
 *     members => member_id group_instance_id client_id client_host member_metadata member_assignment TAG_BUFFER
 *       member_id         => STRING
 *       group_instance_id => NULLABLE_STRING   (v4+, default null)
 *       client_id         => STRING
 *       client_host       => STRING
 *       member_metadata   => BYTES
 *       member_assignment => BYTES
 *     authorized_operations => INT32   (v3+, default Integer.MIN_VALUE: not computed)
 * </pre>
 *
 * Version 1 adds the throttle time. Version 2 has the same layout. Version 3 adds the authorized
 * operations, version 4 the members' instance ids, version 5 is flexible, version 6 adds an error
 * message.
 */
public record DescribeGroupsResponse(int throttleTimeMs, List<Group> groups) implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_GROUPS;

    /** Kafka's "not computed" for authorized operations. */
    public static final int UNKNOWN_AUTHORIZED_OPERATIONS = Integer.MIN_VALUE;

    /** One group's description, or an error. */
    public record Group(short errorCode, String errorMessage, String groupId, String groupState, String protocolType,
                       String protocolData, List<Member> members, int authorizedOperations) {

        public Group {
            members = List.copyOf(members);
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static Group read(ProtocolReader reader, short version) {
            short errorCode = reader.readInt16();
            String errorMessage = version >= 6 ? reader.readNullableString() : null;
            String groupId = reader.readString();
            String groupState = reader.readString();
            String protocolType = reader.readString();
            String protocolData = reader.readString();
            List<Member> members = reader.readArray(r -> Member.read(r, version), 7);
            int authorizedOperations = version >= 3 ? reader.readInt32() : UNKNOWN_AUTHORIZED_OPERATIONS;
            reader.readTaggedFields();
            return new Group(errorCode, errorMessage, groupId, groupState, protocolType, protocolData, members,
                authorizedOperations);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeInt16(errorCode);
            if (version >= 6) {
                writer.writeNullableString(errorMessage);
            }
            writer.writeString(groupId);
            writer.writeString(groupState);
            writer.writeString(protocolType);
            writer.writeString(protocolData);
            writer.writeArray(members, (w, m) -> m.write(w, version));
            if (version >= 3) {
                writer.writeInt32(authorizedOperations);
            }
            writer.writeTaggedFields();
        }
    }

    /** One member: who it is, where it runs, its subscription and its assignment (both opaque). */
    public record Member(String memberId, String groupInstanceId, String clientId, String clientHost,
                         ByteBuffer memberMetadata, ByteBuffer memberAssignment) {

        private static Member read(ProtocolReader reader, short version) {
            String memberId = reader.readString();
            String groupInstanceId = version >= 4 ? reader.readNullableString() : null;
            String clientId = reader.readString();
            String clientHost = reader.readString();
            Member member = new Member(memberId, groupInstanceId, clientId, clientHost, reader.readBytes(),
                reader.readBytes());
            reader.readTaggedFields();
            return member;
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(memberId);
            if (version >= 4) {
                writer.writeNullableString(groupInstanceId);
            }
            writer.writeString(clientId);
            writer.writeString(clientHost);
            writer.writeBytes(memberMetadata);
            writer.writeBytes(memberAssignment);
            writer.writeTaggedFields();
        }
    }

    public DescribeGroupsResponse {
        groups = List.copyOf(groups);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeGroupsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = version >= 1 ? reader.readInt32() : 0;
        List<Group> groups = reader.readArray(r -> Group.read(r, version), 8);
        reader.readTaggedFields();
        return new DescribeGroupsResponse(throttleTimeMs, groups);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 1) {
            writer.writeInt32(throttleTimeMs);
        }
        writer.writeArray(groups, (w, g) -> g.write(w, version));
        writer.writeTaggedFields();
    }
}
