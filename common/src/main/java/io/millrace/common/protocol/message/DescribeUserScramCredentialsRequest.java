package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeUserScramCredentials request (api key 50): the SCRAM credentials of some users, or of all.
 *
 * <pre>
 * DescribeUserScramCredentialsRequest => [users] TAG_BUFFER   users: nullable; null or empty for every user
 *   users => name TAG_BUFFER
 * </pre>
 *
 * Version 0 is flexible.
 */
public record DescribeUserScramCredentialsRequest(List<String> users) implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS;

    public DescribeUserScramCredentialsRequest {
        users = users == null ? null : List.copyOf(users);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeUserScramCredentialsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        DescribeUserScramCredentialsRequest request = new DescribeUserScramCredentialsRequest(
            reader.readNullableArray(DescribeUserScramCredentialsRequest::readUser, 2));
        reader.readTaggedFields();
        return request;
    }

    private static String readUser(ProtocolReader reader) {
        String name = reader.readString();
        reader.readTaggedFields();
        return name;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeNullableArray(users, (w, name) -> {
            w.writeString(name);
            w.writeTaggedFields();
        });
        writer.writeTaggedFields();
    }
}
