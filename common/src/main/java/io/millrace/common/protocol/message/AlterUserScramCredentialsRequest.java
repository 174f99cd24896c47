package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * AlterUserScramCredentials request (api key 51): SCRAM credentials to remove and to set.
 *
 * <pre>
 * AlterUserScramCredentialsRequest => [deletions] [upsertions] TAG_BUFFER
 *   deletions  => name mechanism TAG_BUFFER
 *   upsertions => name mechanism iterations salt salted_password TAG_BUFFER
 * </pre>
 *
 * Version 0 is flexible.
 */
public record AlterUserScramCredentialsRequest(List<Deletion> deletions, List<Upsertion> upsertions) implements ApiMessage {

    private static final ApiKey API = ApiKey.ALTER_USER_SCRAM_CREDENTIALS;

    /** Remove {@code name}'s credential for a mechanism. */
    public record Deletion(String name, byte mechanism) {

        private static Deletion read(ProtocolReader reader) {
            Deletion deletion = new Deletion(reader.readString(), reader.readInt8());
            reader.readTaggedFields();
            return deletion;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeInt8(mechanism);
            writer.writeTaggedFields();
        }
    }

    /** Set {@code name}'s credential for a mechanism, as the client salted and hashed it. */
    public record Upsertion(String name, byte mechanism, int iterations, ByteBuffer salt, ByteBuffer saltedPassword) {

        private static Upsertion read(ProtocolReader reader) {
            Upsertion upsertion = new Upsertion(reader.readString(), reader.readInt8(), reader.readInt32(), reader.readBytes(),
                reader.readBytes());
            reader.readTaggedFields();
            return upsertion;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeInt8(mechanism);
            writer.writeInt32(iterations);
            writer.writeBytes(salt);
            writer.writeBytes(saltedPassword);
            writer.writeTaggedFields();
        }
    }

    public AlterUserScramCredentialsRequest {
        deletions = List.copyOf(deletions);
        upsertions = List.copyOf(upsertions);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static AlterUserScramCredentialsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        AlterUserScramCredentialsRequest request = new AlterUserScramCredentialsRequest(reader.readArray(Deletion::read, 3),
            reader.readArray(Upsertion::read, 9));
        reader.readTaggedFields();
        return request;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeArray(deletions, (w, d) -> d.write(w));
        writer.writeArray(upsertions, (w, u) -> u.write(w));
        writer.writeTaggedFields();
    }
}
