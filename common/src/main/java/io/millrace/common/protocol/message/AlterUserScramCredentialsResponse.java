package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * AlterUserScramCredentials response (api key 51): a result per user the request named.
 *
 * <pre>
 * AlterUserScramCredentialsResponse => throttle_time_ms [results] TAG_BUFFER
 *   results => user error_code error_message TAG_BUFFER
 * </pre>
 */
public record AlterUserScramCredentialsResponse(int throttleTimeMs, List<Result> results) implements ApiMessage {

    private static final ApiKey API = ApiKey.ALTER_USER_SCRAM_CREDENTIALS;

    /** What became of one user's changes. */
    public record Result(String user, short errorCode, String errorMessage) {

        private static Result read(ProtocolReader reader) {
            Result result = new Result(reader.readString(), reader.readInt16(), reader.readNullableString());
            reader.readTaggedFields();
            return result;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(user);
            writer.writeInt16(errorCode);
            writer.writeNullableString(errorMessage);
            writer.writeTaggedFields();
        }
    }

    public AlterUserScramCredentialsResponse {
        results = List.copyOf(results);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static AlterUserScramCredentialsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        AlterUserScramCredentialsResponse response = new AlterUserScramCredentialsResponse(reader.readInt32(),
            reader.readArray(Result::read, 4));
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
