package io.millrace.common.protocol;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.nio.ByteBuffer;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.junit.Test;

public class ResponseHeaderTest {

    @Test
    public void kafkaParsesMillraceResponseHeadersOfBothVersions() {
        for (short headerVersion = 0; headerVersion <= 1; headerVersion++) {
            ByteBuffer bytes = ByteBuffer.allocate(ResponseHeader.sizeInBytes(headerVersion));
            new ResponseHeader(123_456).writeTo(bytes, headerVersion);
            assertFalse(bytes.hasRemaining());
            org.apache.kafka.common.requests.ResponseHeader kafka =
                org.apache.kafka.common.requests.ResponseHeader.parse(bytes.flip(), headerVersion);
            assertEquals(123_456, kafka.correlationId());
            assertFalse(bytes.hasRemaining());
        }
    }

    @Test
    public void millraceParsesKafkaResponseHeadersOfBothVersions() {
        for (short headerVersion = 0; headerVersion <= 1; headerVersion++) {
            ByteBuffer bytes = Wire.kafkaWrite(new ResponseHeaderData().setCorrelationId(-3), headerVersion);
            assertEquals(new ResponseHeader(-3), ResponseHeader.parse(bytes, headerVersion));
            assertFalse(bytes.hasRemaining());
        }
    }
}
