package io.millrace.common.client;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.UnsupportedVersionException;
import io.millrace.common.protocol.message.ApiVersionsResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/** Negotiating API versions with a broker's ApiVersions answer, whatever api keys it advertises. */
public class ApiVersionTableTest {

    @Test
    public void everyApiMillraceSpeaksIsNegotiatedAndKeysItDoesNotKnowAreSkipped() {
        List<ApiVersionsResponse.ApiVersion> advertised = new ArrayList<>();
        for (ApiKey api : ApiKey.values()) {
            advertised.add(new ApiVersionsResponse.ApiVersion(api.id(), (short) 0, (short) 99));
        }
        // Kafka 4 brokers advertise keys far above Millrace's own, such as the streams group APIs.
        advertised.add(new ApiVersionsResponse.ApiVersion((short) 92, (short) 0, (short) 0));
        advertised.add(new ApiVersionsResponse.ApiVersion((short) 1000, (short) 0, (short) 0));
        ApiVersionTable table = ApiVersionTable.negotiate(new ApiVersionsResponse((short) 0, advertised, 0), "broker 1");
        for (ApiKey api : ApiKey.values()) {
            assertEquals(api.name(), api.maxVersion(), table.versionFor(api));
        }
    }

    @Test
    public void anApiTheBrokerLacksIsRefusedWithItsName() {
        ApiVersionTable table = ApiVersionTable.negotiate(new ApiVersionsResponse((short) 0, List.of(
            new ApiVersionsResponse.ApiVersion(ApiKey.METADATA.id(), (short) 0, (short) 12)), 0), "broker 1");
        UnsupportedVersionException e = assertThrows(UnsupportedVersionException.class,
            () -> table.versionFor(ApiKey.LIST_TRANSACTIONS));
        assertEquals("broker 1 supports no version of ListTransactions that Millrace speaks (0 to 2)", e.getMessage());
    }
}
