package io.millrace.common.protocol;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.EnumSet;
import java.util.Set;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.Test;

public class ApiKeyTest {

    @Test
    public void everyRangeLiesWithinWhatKafkaClients43Know() {
        for (ApiKey api : ApiKey.values()) {
            ApiKeys kafka = ApiKeys.forId(api.id());
            assertTrue(api + " min", api.minVersion() >= kafka.oldestVersion());
            assertTrue(api + " max", api.maxVersion() <= kafka.latestVersion());
        }
    }

    @Test
    public void rangesIncludeTheOldestVersionsKafka4ClientsSend() {
        for (ApiKey api : ApiKey.values()) {
            ApiKeys kafka = ApiKeys.forId(api.id());
            short oldest = (short) Math.max(kafka.oldestVersion(), api == ApiKey.METADATA ? 1 : 0);
            assertEquals(api.toString(), oldest, api.minVersion());
        }
    }

    @Test
    public void produceIsAdvertisedFromVersionZeroAsKafkaDoesForLibrdkafka() {
        assertEquals(ApiKeys.PRODUCE_API_VERSIONS_RESPONSE_MIN_VERSION, ApiKey.PRODUCE.advertisedMinVersion());
        assertEquals(3, ApiKey.PRODUCE.minVersion());
        for (ApiKey api : ApiKey.values()) {
            if (api != ApiKey.PRODUCE) {
                assertEquals(api.minVersion(), api.advertisedMinVersion());
            }
        }
    }

    /** Parsed, but not served by the broker yet: none at the moment. */
    private static final Set<ApiKey> NOT_YET_SERVED = EnumSet.noneOf(ApiKey.class);

    @Test
    public void theApisStillToComeAreParsedButNotAdvertisedUntilTheBrokerHandlesThem() {
        for (ApiKey api : ApiKey.values()) {
            assertEquals(api.toString(), !NOT_YET_SERVED.contains(api), api.advertised());
        }
    }

    @Test
    public void namesMatchKafkasApiNames() {
        for (ApiKey api : ApiKey.values()) {
            assertEquals(ApiKeys.forId(api.id()).name, api.displayName());
            assertSame(api, ApiKey.forId(api.id()));
        }
        assertNull(ApiKey.forId(-1));
        assertNull(ApiKey.forId(17));   // SaslHandshake
        assertNull(ApiKey.forId(Short.MAX_VALUE));
    }

    @Test
    public void versionsOutsideTheRangeAreRejectedAsUnsupported() {
        assertThrows(UnsupportedVersionException.class, () -> ApiKey.FETCH.checkVersion((short) 13));
        assertThrows(UnsupportedVersionException.class, () -> ApiKey.PRODUCE.checkVersion((short) 2));
        ApiKey.FETCH.checkVersion((short) 12);
    }
}
