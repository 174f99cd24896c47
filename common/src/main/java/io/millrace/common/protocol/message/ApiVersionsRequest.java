package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;

/**
 * ApiVersions request (api key 18): which versions of which APIs does the broker serve? A client
 * sends it first on every connection, at the newest version it knows.
 *
 * <pre>
 * ApiVersionsRequest v0-v2 => (empty)
 * ApiVersionsRequest v3-v4 => client_software_name client_software_version TAG_BUFFER
 *   client_software_name    => COMPACT_STRING
 *   client_software_version => COMPACT_STRING
 * </pre>
 *
 * Version 3 is the first flexible version and adds the client software name and version.
 * Version 4 has the same layout; it only lets the response list features whose minimum version is 0.
 *
 * <p>When the version is newer than the broker's, the broker must not parse the body: it answers
 * with {@link ApiVersionsResponse#unsupportedVersion()} at version 0.
 */
public record ApiVersionsRequest(String clientSoftwareName, String clientSoftwareVersion) implements ApiMessage {

    private static final ApiKey API = ApiKey.API_VERSIONS;

    public ApiVersionsRequest {
        clientSoftwareName = clientSoftwareName == null ? "" : clientSoftwareName;
        clientSoftwareVersion = clientSoftwareVersion == null ? "" : clientSoftwareVersion;
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ApiVersionsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        if (version < 3) {
            return new ApiVersionsRequest("", "");
        }
        ApiVersionsRequest request = new ApiVersionsRequest(reader.readString(), reader.readString());
        reader.readTaggedFields();
        return request;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 3) {
            writer.writeString(clientSoftwareName);
            writer.writeString(clientSoftwareVersion);
            writer.writeTaggedFields();
        }
    }
}
