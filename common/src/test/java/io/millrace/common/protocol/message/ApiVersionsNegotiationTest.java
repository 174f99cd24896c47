package io.millrace.common.protocol.message;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Frames;
import io.millrace.common.protocol.RequestHeader;
import io.millrace.common.protocol.UnsupportedVersionException;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.clients.NodeApiVersions;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.requests.ResponseHeader;
import org.junit.Test;

/** How a client and a Millrace broker agree on versions through ApiVersions. */
public class ApiVersionsNegotiationTest {

    /** What a Kafka client sees in a response frame written by Millrace: header v0, then the body. */
    private static ApiVersionsResponseData kafkaReadFrame(ByteBuffer frame, short version, int correlationId) {
        assertEquals(frame.remaining() - 4, frame.getInt());
        assertEquals(correlationId, ResponseHeader.parse(frame, (short) 0).correlationId());
        ApiVersionsResponseData data = new ApiVersionsResponseData(new ByteBufferAccessor(frame), version);
        assertFalse(frame.hasRemaining());
        return data;
    }

    @Test
    public void anUnsupportedApiVersionsVersionIsAnsweredAtVersionZeroWithTheSupportedRange() {
        // a client from the future sends ApiVersions v9 with a body Millrace cannot know
        RequestHeader future = new RequestHeader(ApiKey.API_VERSIONS, (short) 9, 41, "future-client");
        ByteBuffer request = ByteBuffer.allocate(future.sizeInBytes() + 3);
        future.writeTo(request);
        request.put(new byte[] {1, 2, 3}).flip();

        RequestHeader header = RequestHeader.parse(request);
        assertEquals(2, header.headerVersion());
        assertFalse(header.api().isVersionSupported(header.apiVersion()));
        assertThrows(UnsupportedVersionException.class, () -> ApiVersionsRequest.parse(request, header.apiVersion()));

        ApiVersionsResponse answer = ApiVersionsResponse.unsupportedVersion();
        ApiVersionsResponseData kafka = kafkaReadFrame(Frames.response(header.correlationId(), answer, (short) 0), (short) 0, 41);
        assertEquals(Errors.UNSUPPORTED_VERSION.code(), kafka.errorCode());
        ApiVersionsResponseData.ApiVersion apiVersions = kafka.apiKeys().find(ApiKey.API_VERSIONS.id());
        assertEquals(0, apiVersions.minVersion());
        assertEquals(ApiKey.API_VERSIONS.maxVersion(), apiVersions.maxVersion());
    }

    @Test
    public void theNewestApiVersionsRequestOfKafkaClients43IsServedWithoutARetry() {
        assertTrue(ApiKey.API_VERSIONS.isVersionSupported(ApiKeys.API_VERSIONS.latestVersion()));
    }

    @Test
    public void kafkaClientsPickTheNewestVersionBothSidesKnow() {
        ApiVersionsResponse supported = ApiVersionsResponse.supported(Errors.NONE, 0);
        short version = ApiKey.API_VERSIONS.maxVersion();
        ApiVersionsResponseData kafka = kafkaReadFrame(Frames.response(1, supported, version), version, 1);
        NodeApiVersions node = new NodeApiVersions(kafka.apiKeys(), List.of());
        for (ApiKey api : ApiKey.values()) {
            ApiKeys kafkaApi = ApiKeys.forId(api.id());
            if (api.advertised()) {
                assertEquals(api.toString(), api.maxVersion(), node.latestUsableVersion(kafkaApi));
            } else {
                assertThrows(api.toString(), org.apache.kafka.common.errors.UnsupportedVersionException.class,
                    () -> node.latestUsableVersion(kafkaApi));
            }
        }
        assertEquals(0, kafka.apiKeys().find(ApiKey.PRODUCE.id()).minVersion());
    }

    @Test
    public void theSupportedListHasOneEntryPerAdvertisedApi() {
        List<ApiVersionsResponse.ApiVersion> versions = ApiVersionsResponse.supported(Errors.NONE, 0).apiKeys();
        assertEquals(java.util.Arrays.stream(ApiKey.values()).filter(ApiKey::advertised).count(), versions.size());
        for (ApiVersionsResponse.ApiVersion v : versions) {
            ApiKey api = ApiKey.forId(v.apiKey());
            assertTrue(api + " is listed", api.advertised());
            assertEquals(api.advertisedMinVersion(), v.minVersion());
            assertEquals(api.maxVersion(), v.maxVersion());
        }
    }
}
