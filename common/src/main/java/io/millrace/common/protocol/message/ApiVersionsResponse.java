package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * ApiVersions response (api key 18). Always sent with response header version 0.
 *
 * <pre>
 * ApiVersionsResponse => error_code [api_keys] throttle_time_ms TAG_BUFFER
 *   error_code       => INT16
 *   api_keys         => api_key min_version max_version TAG_BUFFER
 *     api_key          => INT16
 *     min_version      => INT16
 *     max_version      => INT16
 *   throttle_time_ms => INT32          (v1+)
 * </pre>
 *
 * Version 1 adds the throttle time. Version 2 has the same layout (the broker answers before
 * throttling). Version 3 is flexible; Kafka adds the tagged fields SupportedFeatures (0),
 * FinalizedFeaturesEpoch (1), FinalizedFeatures (2) and ZkMigrationReady (3), which Millrace
 * skips when reading and never writes: it has no feature flags. Version 4 has the same layout.
 *
 * <p><b>Unsupported versions.</b> A client sends ApiVersions at the newest version it knows. When
 * that is newer than {@link ApiKey#maxVersion()}, the broker answers {@link #unsupportedVersion()}
 * written at version 0: UNSUPPORTED_VERSION plus the full list, from which the client picks the
 * highest ApiVersions version both sides know and asks again.
 */
public record ApiVersionsResponse(short errorCode, List<ApiVersion> apiKeys, int throttleTimeMs) implements ApiMessage {

    private static final ApiKey API = ApiKey.API_VERSIONS;

    /** One api's version range. */
    public record ApiVersion(short apiKey, short minVersion, short maxVersion) {

        private static ApiVersion read(ProtocolReader reader) {
            ApiVersion v = new ApiVersion(reader.readInt16(), reader.readInt16(), reader.readInt16());
            reader.readTaggedFields();
            return v;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt16(apiKey);
            writer.writeInt16(minVersion);
            writer.writeInt16(maxVersion);
            writer.writeTaggedFields();
        }
    }

    public ApiVersionsResponse {
        apiKeys = List.copyOf(apiKeys);
    }

    /** The response listing every {@link ApiKey#advertised() advertised} api with its advertised range. */
    public static ApiVersionsResponse supported(Errors error, int throttleTimeMs) {
        List<ApiVersion> versions = new ArrayList<>();
        for (ApiKey key : ApiKey.values()) {
            if (key.advertised()) {
                versions.add(new ApiVersion(key.id(), key.advertisedMinVersion(), key.maxVersion()));
            }
        }
        return new ApiVersionsResponse(error.code(), versions, throttleTimeMs);
    }

    /** The answer to an ApiVersions request of an unsupported version; write it at version 0. */
    public static ApiVersionsResponse unsupportedVersion() {
        return supported(Errors.UNSUPPORTED_VERSION, 0);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ApiVersionsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        short errorCode = reader.readInt16();
        List<ApiVersion> apiKeys = reader.readArray(ApiVersion::read, 6);
        int throttleTimeMs = version >= 1 ? reader.readInt32() : 0;
        reader.readTaggedFields();
        return new ApiVersionsResponse(errorCode, apiKeys, throttleTimeMs);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt16(errorCode);
        writer.writeArray(apiKeys, (w, v) -> v.write(w));
        if (version >= 1) {
            writer.writeInt32(throttleTimeMs);
        }
        writer.writeTaggedFields();
    }
}
