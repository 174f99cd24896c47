package io.millrace.common.protocol;

import static org.junit.Assert.assertEquals;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.MessageUtil;

/** Writing bodies with Kafka's generated classes and with Millrace's, for cross-checks. */
public final class Wire {

    private Wire() {
    }

    /** Kafka's bytes for {@code message} at {@code version}, ready to read. */
    public static ByteBuffer kafkaWrite(Message message, short version) {
        return MessageUtil.toByteBufferAccessor(message, version).buffer();
    }

    /** Millrace's bytes for {@code message}, checking that they fill exactly {@code sizeInBytes}. */
    public static ByteBuffer millraceWrite(ApiMessage message, short version) {
        int size = message.sizeInBytes(version);
        ByteBuffer buffer = ByteBuffer.allocate(size);
        message.writeTo(buffer, version);
        assertEquals("bytes written vs sizeInBytes", 0, buffer.remaining());
        return buffer.flip();
    }

    /** JUnit parameters: every version Millrace supports for {@code api}. */
    public static List<Object[]> versions(ApiKey api) {
        List<Object[]> versions = new ArrayList<>();
        for (short v = api.minVersion(); v <= api.maxVersion(); v++) {
            versions.add(new Object[] {v});
        }
        return versions;
    }
}
