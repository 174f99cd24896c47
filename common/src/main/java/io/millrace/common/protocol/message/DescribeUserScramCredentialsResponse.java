package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeUserScramCredentials response (api key 50): a result per user.
 *
 * <pre>
 * DescribeUserScramCredentialsResponse => throttle_time_ms error_code error_message [results] TAG_BUFFER
 *   results => user error_code error_message [credential_infos] TAG_BUFFER
 *     credential_infos => mechanism iterations TAG_BUFFER   mechanism: INT8 (1 SCRAM-SHA-256, 2 SCRAM-SHA-512)
 * </pre>
 */
public record DescribeUserScramCredentialsResponse(int throttleTimeMs, short errorCode, String errorMessage,
                                                   List<Result> results) implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS;

    /** One user's credentials, or why there are none to describe. */
    public record Result(String user, short errorCode, String errorMessage, List<CredentialInfo> credentialInfos) {

        public Result {
            credentialInfos = List.copyOf(credentialInfos);
        }

        private static Result read(ProtocolReader reader) {
            Result result = new Result(reader.readString(), reader.readInt16(), reader.readNullableString(),
                reader.readArray(CredentialInfo::read, 5));
            reader.readTaggedFields();
            return result;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(user);
            writer.writeInt16(errorCode);
            writer.writeNullableString(errorMessage);
            writer.writeArray(credentialInfos, (w, c) -> c.write(w));
            writer.writeTaggedFields();
        }
    }

    /** A mechanism the user has a credential for, and its iterations. */
    public record CredentialInfo(byte mechanism, int iterations) {

        private static CredentialInfo read(ProtocolReader reader) {
            CredentialInfo info = new CredentialInfo(reader.readInt8(), reader.readInt32());
            reader.readTaggedFields();
            return info;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt8(mechanism);
            writer.writeInt32(iterations);
            writer.writeTaggedFields();
        }
    }

    public DescribeUserScramCredentialsResponse {
        results = List.copyOf(results);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeUserScramCredentialsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        DescribeUserScramCredentialsResponse response = new DescribeUserScramCredentialsResponse(reader.readInt32(),
            reader.readInt16(), reader.readNullableString(), reader.readArray(Result::read, 5));
        reader.readTaggedFields();
        return response;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeInt16(errorCode);
        writer.writeNullableString(errorMessage);
        writer.writeArray(results, (w, r) -> r.write(w));
        writer.writeTaggedFields();
    }
}
