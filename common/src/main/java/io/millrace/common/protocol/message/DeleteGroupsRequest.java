package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DeleteGroups request (api key 42): delete empty groups and their committed offsets.
 *
 * <pre>
 * DeleteGroupsRequest => [groups_names] TAG_BUFFER
 *   groups_names => STRING
 * </pre>
 *
 * Version 1 has the same layout as 0, version 2 is flexible.
 */
public record DeleteGroupsRequest(List<String> groupsNames) implements ApiMessage {

    private static final ApiKey API = ApiKey.DELETE_GROUPS;

    public DeleteGroupsRequest {
        groupsNames = List.copyOf(groupsNames);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DeleteGroupsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<String> groupsNames = reader.readStringArray();
        reader.readTaggedFields();
        return new DeleteGroupsRequest(groupsNames);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeStringArray(groupsNames);
        writer.writeTaggedFields();
    }
}
