package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * CreatePartitions response (api key 37).
 *
 * <pre>
 * CreatePartitionsResponse => throttle_time_ms [results] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   results => name error_code error_message TAG_BUFFER
 *     name          => STRING
 *     error_code    => INT16
 *     error_message => NULLABLE_STRING   (null when there was no error)
 * </pre>
 *
 * Version 0 (the oldest supported) has every field. Version 1 has the same layout (the throttle is
 * applied after the answer). Version 2 is flexible. Version 3 has the same layout.
 */
public record CreatePartitionsResponse(int throttleTimeMs, List<CreatePartitionsTopicResult> results) implements ApiMessage {

    private static final ApiKey API = ApiKey.CREATE_PARTITIONS;

    public record CreatePartitionsTopicResult(String name, short errorCode, String errorMessage) {

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static CreatePartitionsTopicResult read(ProtocolReader reader) {
            CreatePartitionsTopicResult result = new CreatePartitionsTopicResult(reader.readString(), reader.readInt16(),
                reader.readNullableString());
            reader.readTaggedFields();
            return result;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeInt16(errorCode);
            writer.writeNullableString(errorMessage);
            writer.writeTaggedFields();
        }
    }

    public CreatePartitionsResponse {
        results = List.copyOf(results);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static CreatePartitionsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        List<CreatePartitionsTopicResult> results = reader.readArray(CreatePartitionsTopicResult::read, 5);
        reader.readTaggedFields();
        return new CreatePartitionsResponse(throttleTimeMs, results);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(results, (w, r) -> r.write(w));
        writer.writeTaggedFields();
    }
}
