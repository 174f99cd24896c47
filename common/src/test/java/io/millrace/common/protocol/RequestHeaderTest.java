package io.millrace.common.protocol;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;

import java.nio.ByteBuffer;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.Test;

public class RequestHeaderTest {

    private static final String[] CLIENT_IDS = {"console-producer", null, "", "client-ü"};

    @Test
    public void kafkaParsesMillraceHeadersForEveryApiVersionAndClientId() {
        for (ApiKey api : ApiKey.values()) {
            for (short v = api.minVersion(); v <= api.maxVersion(); v++) {
                for (String clientId : CLIENT_IDS) {
                    io.millrace.common.protocol.RequestHeader ours = new io.millrace.common.protocol.RequestHeader(api, v, 99, clientId);
                    ByteBuffer bytes = ByteBuffer.allocate(ours.sizeInBytes());
                    ours.writeTo(bytes);
                    assertFalse(bytes.hasRemaining());
                    RequestHeader kafka = RequestHeader.parse(bytes.flip().duplicate());
                    assertEquals(api.id(), kafka.apiKey().id);
                    assertEquals(v, kafka.apiVersion());
                    assertEquals(99, kafka.correlationId());
                    assertEquals(kafka.headerVersion(), ours.headerVersion());
                    // RequestHeader.parse turns a null client id into ""; the raw data keeps it
                    RequestHeaderData raw = new RequestHeaderData(new ByteBufferAccessor(bytes), kafka.headerVersion());
                    assertEquals(clientId, raw.clientId());
                    assertFalse(api + " v" + v, bytes.hasRemaining());
                }
            }
        }
    }

    @Test
    public void millraceParsesKafkaHeadersForEveryApiVersionAndClientId() {
        for (ApiKey api : ApiKey.values()) {
            for (short v = api.minVersion(); v <= api.maxVersion(); v++) {
                for (String clientId : CLIENT_IDS) {
                    short headerVersion = ApiKeys.forId(api.id()).requestHeaderVersion(v);
                    RequestHeaderData data = new RequestHeaderData().setRequestApiKey(api.id()).setRequestApiVersion(v)
                        .setCorrelationId(-7).setClientId(clientId);
                    ByteBuffer bytes = Wire.kafkaWrite(data, headerVersion);
                    io.millrace.common.protocol.RequestHeader ours = io.millrace.common.protocol.RequestHeader.parse(bytes);
                    assertEquals(new io.millrace.common.protocol.RequestHeader(api, v, -7, clientId), ours);
                    assertFalse(api + " v" + v, bytes.hasRemaining());
                }
            }
        }
    }

    @Test
    public void headerVersionsAgreeWithKafkaForEveryApiAndVersion() {
        for (ApiKey api : ApiKey.values()) {
            ApiKeys kafka = ApiKeys.forId(api.id());
            for (short v = api.minVersion(); v <= api.maxVersion(); v++) {
                assertEquals(api + " v" + v, kafka.requestHeaderVersion(v), api.requestHeaderVersion(v));
                assertEquals(api + " v" + v, kafka.responseHeaderVersion(v), api.responseHeaderVersion(v));
            }
        }
    }

    @Test
    public void apiVersionsResponsesAlwaysUseHeaderVersionZero() {
        for (short v = 0; v <= 10; v++) {
            assertEquals(0, ApiKey.API_VERSIONS.responseHeaderVersion(v));
        }
        assertEquals(2, ApiKey.API_VERSIONS.requestHeaderVersion((short) 3));
    }

    @Test
    public void aHeaderWithAnUnknownApiKeyStillParsesAsVersionOne() {
        ByteBuffer bytes = ByteBuffer.allocate(32).putShort((short) 999).putShort((short) 4).putInt(5).putShort((short) 1)
            .put((byte) 'c').putInt(0xdeadbeef).flip();
        io.millrace.common.protocol.RequestHeader header = io.millrace.common.protocol.RequestHeader.parse(bytes);
        assertNull(header.api());
        assertEquals(1, header.headerVersion());
        assertEquals("c", header.clientId());
        assertEquals(4, bytes.remaining());
    }

    @Test
    public void aTruncatedHeaderIsRejectedAsInvalidRequest() {
        io.millrace.common.protocol.RequestHeader header = new io.millrace.common.protocol.RequestHeader(ApiKey.FETCH, (short) 12, 1, "abc");
        ByteBuffer bytes = ByteBuffer.allocate(header.sizeInBytes());
        header.writeTo(bytes);
        for (int length = 0; length < bytes.capacity(); length++) {
            ByteBuffer truncated = ByteBuffer.wrap(bytes.array(), 0, length);
            assertThrows(InvalidRequestException.class, () -> io.millrace.common.protocol.RequestHeader.parse(truncated));
        }
    }
}
