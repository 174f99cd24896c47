package io.millrace.common.protocol;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import io.millrace.common.config.ConfigException;
import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.InvalidPartitionsException;
import io.millrace.common.errors.InvalidTopicException;
import io.millrace.common.errors.KafkaStorageException;
import io.millrace.common.errors.InvalidProducerEpochException;
import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.common.errors.OutOfOrderSequenceException;
import io.millrace.common.errors.TopicExistsException;
import io.millrace.common.errors.UnknownTopicOrPartitionException;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.errors.MillraceException;
import io.millrace.common.errors.RecordBatchTooLargeException;
import io.millrace.common.errors.RecordTooLargeException;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.errors.RetriableException;
import org.junit.Test;

public class ErrorsTest {

    @Test
    public void codesNamesAndRetriableFlagsAreKafkas() {
        for (Errors error : Errors.values()) {
            org.apache.kafka.common.protocol.Errors kafka = org.apache.kafka.common.protocol.Errors.forCode(error.code());
            assertEquals(error.toString(), kafka.name(), error.name());
            boolean kafkaRetriable = kafka.exception() instanceof RetriableException;
            assertEquals(error.toString(), kafkaRetriable, error.isRetriable());
        }
    }

    @Test
    public void everyCodeAppearsOnce() {
        Set<Short> codes = new HashSet<>();
        for (Errors error : Errors.values()) {
            assertTrue(error.toString(), codes.add(error.code()));
            assertSame(error, Errors.forCode(error.code()));
        }
    }

    @Test
    public void anUnknownCodeReadsAsUnknownServerError() {
        assertSame(Errors.UNKNOWN_SERVER_ERROR, Errors.forCode((short) 9999));
    }

    @Test
    public void recordExceptionsMapToTheirOwnCodes() {
        assertSame(Errors.INVALID_RECORD, Errors.forException(new InvalidRecordException("x")));
        assertSame(Errors.CORRUPT_MESSAGE, Errors.forException(new CorruptRecordException("x")));
        assertSame(Errors.MESSAGE_TOO_LARGE, Errors.forException(new RecordTooLargeException("x")));
        // Kafka's producer splits a batch refused with MESSAGE_TOO_LARGE; one larger than a segment is not split
        assertSame(Errors.RECORD_LIST_TOO_LARGE, Errors.forException(new RecordBatchTooLargeException("x")));
        assertTrue(Errors.RECORD_LIST_TOO_LARGE.exception("x") instanceof RecordBatchTooLargeException);
    }

    @Test
    public void brokerExceptionsMapToTheCodesKafkaSendsForThem() {
        assertSame(Errors.OFFSET_OUT_OF_RANGE, Errors.forException(new OffsetOutOfRangeException("x")));
        assertSame(Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.forException(new UnknownTopicOrPartitionException("x")));
        assertSame(Errors.INVALID_TOPIC_EXCEPTION, Errors.forException(new InvalidTopicException("x")));
        assertSame(Errors.TOPIC_ALREADY_EXISTS, Errors.forException(new TopicExistsException("x")));
        assertSame(Errors.INVALID_PARTITIONS, Errors.forException(new InvalidPartitionsException("x")));
        assertSame(Errors.INVALID_CONFIG, Errors.forException(new ConfigException("x")));
        assertSame(Errors.KAFKA_STORAGE_ERROR, Errors.forException(new KafkaStorageException("x")));
        assertSame(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER, Errors.forException(new OutOfOrderSequenceException("x")));
        assertSame(Errors.INVALID_PRODUCER_EPOCH, Errors.forException(new InvalidProducerEpochException("x")));
    }

    @Test
    public void protocolExceptionsMapToInvalidRequestAndUnsupportedVersion() {
        assertSame(Errors.INVALID_REQUEST, Errors.forException(new InvalidRequestException("x")));
        assertSame(Errors.UNSUPPORTED_VERSION, Errors.forException(new UnsupportedVersionException("x")));
        assertSame(Errors.NOT_LEADER_OR_FOLLOWER, Errors.forException(new ApiException(Errors.NOT_LEADER_OR_FOLLOWER, "x")));
    }

    @Test
    public void wrappersFromFuturesAreLookedThrough() {
        assertSame(Errors.CORRUPT_MESSAGE, Errors.forException(new CompletionException(new CorruptRecordException("x"))));
        assertSame(Errors.MESSAGE_TOO_LARGE, Errors.forException(new ExecutionException(new RecordTooLargeException("x"))));
    }

    @Test
    public void anythingElseIsAnUnknownServerError() {
        assertSame(Errors.UNKNOWN_SERVER_ERROR, Errors.forException(new IllegalStateException()));
        assertSame(Errors.UNKNOWN_SERVER_ERROR, Errors.forException(new IOException()));
        assertSame(Errors.UNKNOWN_SERVER_ERROR, Errors.forException(new MillraceException("x")));
    }

    @Test
    public void everyCodeBecomesAnExceptionThatMapsBackToIt() {
        assertNull(Errors.NONE.exception());
        for (Errors error : Errors.values()) {
            if (error != Errors.NONE) {
                MillraceException e = error.exception();
                assertEquals(error.message(), e.getMessage());
                assertSame(error, Errors.forException(e));
            }
        }
        assertEquals("custom", Errors.INVALID_RECORD.exception("custom").getMessage());
        assertTrue(Errors.CORRUPT_MESSAGE.exception() instanceof CorruptRecordException);
    }
}
