package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * CreateAcls response (api key 30): one result per creation, in the request's order.
 *
 * <pre>
 * CreateAclsResponse => throttle_time_ms [results] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   results => error_code error_message TAG_BUFFER
 *     error_code    => INT16
 *     error_message => NULLABLE_STRING
 * </pre>
 */
public record CreateAclsResponse(int throttleTimeMs, List<Result> results) implements ApiMessage {

    private static final ApiKey API = ApiKey.CREATE_ACLS;

    /** What became of one creation. */
    public record Result(short errorCode, String errorMessage) {

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static Result read(ProtocolReader reader) {
            Result result = new Result(reader.readInt16(), reader.readNullableString());
            reader.readTaggedFields();
            return result;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt16(errorCode);
            writer.writeNullableString(errorMessage);
            writer.writeTaggedFields();
        }
    }

    public CreateAclsResponse {
        results = List.copyOf(results);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static CreateAclsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        CreateAclsResponse response = new CreateAclsResponse(reader.readInt32(), reader.readArray(Result::read, 3));
        reader.readTaggedFields();
        return response;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(results, (w, r) -> r.write(w));
        writer.writeTaggedFields();
    }
}
