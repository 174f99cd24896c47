package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeGroups request (api key 15): the state, protocol and members of some groups.
 *
 * <pre>
 * DescribeGroupsRequest => [groups] include_authorized_operations TAG_BUFFER
 *   groups                        => STRING
 *   include_authorized_operations => BOOLEAN   (v3+, default false)
 * </pre>
 *
 * Versions 1 and 2 have the same layout as 0. Version 3 adds include_authorized_operations.
 * Version 4 has the same layout (the response gains instance ids), version 5 is flexible, version 6
 * has the same layout (the response gains an error message).
 */
public record DescribeGroupsRequest(List<String> groups, boolean includeAuthorizedOperations) implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_GROUPS;

    public DescribeGroupsRequest {
        groups = List.copyOf(groups);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeGroupsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<String> groups = reader.readStringArray();
        boolean includeAuthorizedOperations = version >= 3 && reader.readBool();
        reader.readTaggedFields();
        return new DescribeGroupsRequest(groups, includeAuthorizedOperations);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeStringArray(groups);
        if (version >= 3) {
            writer.writeBool(includeAuthorizedOperations);
        }
        writer.writeTaggedFields();
    }
}
