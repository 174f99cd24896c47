package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * ListGroups request (api key 16): the groups a broker coordinates, optionally only those in
 * some states or of some types.
 *
 * <pre>
 * ListGroupsRequest => [states_filter] [types_filter] TAG_BUFFER
 *   states_filter => STRING   (v4+, e.g. "Stable", "Empty"; empty: every state)
 *   types_filter  => STRING   (v5+, e.g. "classic", "consumer"; empty: every type)
 * </pre>
 *
 * Versions 0 to 2 have an empty body. Version 3 is flexible, version 4 adds the states filter and
 * version 5 the types filter.
 */
public record ListGroupsRequest(List<String> statesFilter, List<String> typesFilter) implements ApiMessage {

    private static final ApiKey API = ApiKey.LIST_GROUPS;

    public ListGroupsRequest {
        statesFilter = List.copyOf(statesFilter);
        typesFilter = List.copyOf(typesFilter);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ListGroupsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<String> statesFilter = version >= 4 ? reader.readStringArray() : List.of();
        List<String> typesFilter = version >= 5 ? reader.readStringArray() : List.of();
        reader.readTaggedFields();
        return new ListGroupsRequest(statesFilter, typesFilter);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 4) {
            writer.writeStringArray(statesFilter);
        }
        if (version >= 5) {
            writer.writeStringArray(typesFilter);
        }
        writer.writeTaggedFields();
    }
}
