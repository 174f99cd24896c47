package io.millrace.common.protocol;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;

import java.nio.ByteBuffer;
import java.util.Random;
import org.apache.kafka.common.protocol.Message;
import org.junit.Test;

/**
 * The checks every request and response body passes at every supported version, against Apache
 * Kafka's generated classes from kafka-clients: Millrace reads what Kafka writes, Kafka reads what
 * Millrace writes, both write the same bytes, Millrace round-trips, and malformed input raises
 * only {@link InvalidRequestException}.
 *
 * @param <K> Kafka's generated data class
 * @param <M> Millrace's record
 */
public abstract class CompatibilityContract<K extends Message, M extends ApiMessage> {

    protected final short version;

    protected CompatibilityContract(short version) {
        this.version = version;
    }

    /** A Kafka message with every field this version has set to a non-default value. */
    protected abstract K kafkaSample();

    /** Kafka's parser. */
    protected abstract K kafkaRead(ByteBuffer buffer);

    /** Millrace's parser. */
    protected abstract M millraceRead(ByteBuffer buffer);

    /** The Millrace record holding the same field values as {@code kafka}. */
    protected abstract M toMillrace(K kafka);

    private ByteBuffer kafkaBytes() {
        return Wire.kafkaWrite(kafkaSample(), version);
    }

    /** The sample as Kafka sees it after a round trip: fields this version lacks are back at their defaults. */
    private M expected() {
        return toMillrace(kafkaRead(kafkaBytes()));
    }

    @Test
    public void millraceReadsEveryFieldKafkaWrites() {
        ByteBuffer bytes = kafkaBytes();
        M parsed = millraceRead(bytes);
        assertEquals("bytes left unread", 0, bytes.remaining());
        assertEquals(expected(), parsed);
    }

    @Test
    public void kafkaReadsEveryFieldMillraceWrites() {
        K kafka = kafkaRead(Wire.millraceWrite(expected(), version));
        assertEquals(expected(), toMillrace(kafka));
        assertEquals(kafkaRead(kafkaBytes()), kafka);
    }

    @Test
    public void millraceWritesTheSameBytesAsKafka() {
        assertEquals(kafkaBytes(), Wire.millraceWrite(expected(), version));
    }

    @Test
    public void roundTripsThroughMillrace() {
        M message = expected();
        ByteBuffer bytes = Wire.millraceWrite(message, version);
        assertEquals(message, millraceRead(bytes));
        assertFalse(bytes.hasRemaining());
    }

    @Test
    public void everyTruncationIsRejectedAsInvalidRequest() {
        ByteBuffer bytes = Wire.millraceWrite(expected(), version);
        for (int length = 0; length < bytes.limit(); length++) {
            ByteBuffer truncated = bytes.duplicate().limit(length);
            assertThrows("truncated to " + length, InvalidRequestException.class, () -> millraceRead(truncated));
        }
    }

    @Test
    public void corruptedBytesParseOrRaiseOnlyInvalidRequest() {
        ByteBuffer original = Wire.millraceWrite(expected(), version);
        Random random = new Random(31L * version + getClass().getName().hashCode());
        for (int i = 0; i < 200; i++) {
            ByteBuffer corrupted = ByteBuffer.allocate(original.limit()).put(original.duplicate()).flip();
            for (int flips = 1 + random.nextInt(3); flips > 0 && corrupted.limit() > 0; flips--) {
                corrupted.put(random.nextInt(corrupted.limit()), (byte) random.nextInt(256));
            }
            try {
                millraceRead(corrupted);
            } catch (InvalidRequestException expected) {
                // the only exception malformed bytes may raise
            }
        }
    }
}
