package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * IncrementalAlterConfigs response (api key 44).
 *
 * <pre>
 * IncrementalAlterConfigsResponse => throttle_time_ms [responses] TAG_BUFFER
 *   responses => error_code error_message resource_type resource_name TAG_BUFFER
 *     error_code    => INT16
 *     error_message => NULLABLE_STRING
 *     resource_type => INT8
 *     resource_name => STRING
 * </pre>
 *
 * Version 0 has the layout above without tagged fields; version 1 is flexible.
 */
public record IncrementalAlterConfigsResponse(int throttleTimeMs, List<Result> responses) implements ApiMessage {

    private static final ApiKey API = ApiKey.INCREMENTAL_ALTER_CONFIGS;

    /** One resource's outcome. */
    public record Result(short errorCode, String errorMessage, byte resourceType, String resourceName) {

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static Result read(ProtocolReader reader) {
            Result result = new Result(reader.readInt16(), reader.readNullableString(), reader.readInt8(), reader.readString());
            reader.readTaggedFields();
            return result;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt16(errorCode);
            writer.writeNullableString(errorMessage);
            writer.writeInt8(resourceType);
            writer.writeString(resourceName);
            writer.writeTaggedFields();
        }
    }

    public IncrementalAlterConfigsResponse {
        responses = List.copyOf(responses);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static IncrementalAlterConfigsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        List<Result> responses = reader.readArray(Result::read, 5);
        reader.readTaggedFields();
        return new IncrementalAlterConfigsResponse(throttleTimeMs, responses);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(responses, (w, r) -> r.write(w));
        writer.writeTaggedFields();
    }
}
