package io.millrace.common.client;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.UnsupportedVersionException;
import io.millrace.common.protocol.message.ApiVersionsResponse;
import java.util.Arrays;

/**
 * The version of each API a client uses on one connection: the highest that both Millrace and the
 * broker support, worked out once from the broker's ApiVersions response. Immutable.
 */
final class ApiVersionTable {

    private final short[] versions;
    private final String broker;

    private ApiVersionTable(short[] versions, String broker) {
        this.versions = versions;
        this.broker = broker;
    }

    static ApiVersionTable negotiate(ApiVersionsResponse response, String broker) {
        short[] versions = new short[ApiKey.ID_LIMIT];
        Arrays.fill(versions, (short) -1);
        for (ApiVersionsResponse.ApiVersion theirs : response.apiKeys()) {
            ApiKey ours = ApiKey.forId(theirs.apiKey());
            if (ours == null) {
                continue;
            }
            short max = (short) Math.min(ours.maxVersion(), theirs.maxVersion());
            short min = (short) Math.max(ours.minVersion(), theirs.minVersion());
            if (max >= min) {
                versions[ours.id()] = max;
            }
        }
        return new ApiVersionTable(versions, broker);
    }

    /** The version to send {@code api} at; throws when the two sides share none. */
    short versionFor(ApiKey api) {
        short version = versions[api.id()];
        if (version < 0) {
            throw new UnsupportedVersionException(broker + " supports no version of " + api.displayName()
                + " that Millrace speaks (" + api.minVersion() + " to " + api.maxVersion() + ")");
        }
        return version;
    }
}
