package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DeleteGroups response (api key 42): one result per group (NON_EMPTY_GROUP for a group that
 * still has members, GROUP_ID_NOT_FOUND for one that does not exist).
 *
 * <pre>
 * DeleteGroupsResponse => throttle_time_ms [results] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   results => group_id error_code TAG_BUFFER   (STRING, INT16)
 * </pre>
 *
 * Version 1 has the same layout as 0, version 2 is flexible.
 */
public record DeleteGroupsResponse(int throttleTimeMs, List<Result> results) implements ApiMessage {

    private static final ApiKey API = ApiKey.DELETE_GROUPS;

    /** Whether one group was deleted. */
    public record Result(String groupId, short errorCode) {

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static Result read(ProtocolReader reader) {
            Result result = new Result(reader.readString(), reader.readInt16());
            reader.readTaggedFields();
            return result;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(groupId);
            writer.writeInt16(errorCode);
            writer.writeTaggedFields();
        }
    }

    public DeleteGroupsResponse {
        results = List.copyOf(results);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DeleteGroupsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        List<Result> results = reader.readArray(Result::read, 3);
        reader.readTaggedFields();
        return new DeleteGroupsResponse(throttleTimeMs, results);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(results, (w, r) -> r.write(w));
        writer.writeTaggedFields();
    }
}
