package io.millrace.common.record;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

/**
 * Millrace and Apache Kafka 4.3 (kafka-clients' MemoryRecordsBuilder and MemoryRecords) write the
 * same bytes and read each other's batches, for every codec and every {@link Scenario}.
 */
@RunWith(Parameterized.class)
public class KafkaCompatibilityTest {

    @Parameters(name = "{0} {1}")
    public static Collection<Object[]> cases() {
        List<Object[]> cases = new ArrayList<>();
        for (CompressionType type : CompressionType.values()) {
            for (Scenario scenario : Scenario.all()) {
                cases.add(new Object[] {type, scenario});
            }
        }
        return cases;
    }

    private final CompressionType compression;
    private final Scenario scenario;

    public KafkaCompatibilityTest(CompressionType compression, Scenario scenario) {
        this.compression = compression;
        this.scenario = scenario;
    }

    @Test
    public void millraceBuildsTheSameBytesAsKafka() {
        byte[] kafka = bytes(scenario.buildWithKafka(compression));
        byte[] millrace = bytes(scenario.buildWithMillrace(compression));
        assertEquals("batch size", kafka.length, millrace.length);
        assertArrayEquals(kafka, millrace);
    }

    @Test
    public void kafkaReadsWhatMillraceWrites() {
        MemoryRecords records = MemoryRecords.readableRecords(scenario.buildWithMillrace(compression));
        Iterator<MutableRecordBatch> batches = records.batches().iterator();
        MutableRecordBatch batch = batches.next();
        assertFalse(batches.hasNext());
        batch.ensureValid();
        assertEquals(scenario.baseOffset, batch.baseOffset());
        assertEquals(scenario.baseOffset + scenario.records.size() - 1, batch.lastOffset());
        assertEquals(scenario.maxTimestamp(), batch.maxTimestamp());
        assertEquals(Scenario.Kafka.timestampType(scenario.timestampType), batch.timestampType());
        assertEquals(compression.id, batch.compressionType().id);
        assertEquals(scenario.producerId, batch.producerId());
        assertEquals(scenario.transactional, batch.isTransactional());
        assertEquals(scenario.partitionLeaderEpoch, batch.partitionLeaderEpoch());
        int i = 0;
        for (org.apache.kafka.common.record.internal.Record record : batch) {
            Scenario.Input input = scenario.records.get(i);
            assertEquals(scenario.baseOffset + i, record.offset());
            assertEquals(scenario.expectedTimestamp(input), record.timestamp());
            assertBytes(input.key, record.key());
            assertBytes(input.value, record.value());
            assertEquals(input.headers.length, record.headers().length);
            for (int h = 0; h < input.headers.length; h++) {
                assertEquals(input.headers[h].key(), record.headers()[h].key());
                assertArrayEquals(input.headers[h].value(), record.headers()[h].value());
            }
            i++;
        }
        assertEquals(scenario.records.size(), i);
    }

    @Test
    public void millraceReadsWhatKafkaWrites() {
        RecordBatchIterator batches = new RecordBatchIterator(scenario.buildWithKafka(compression));
        RecordBatch batch = batches.next();
        assertFalse(batches.hasNext());
        assertEquals(0, batches.truncatedBytes());
        batch.ensureValid();
        assertEquals(scenario.baseOffset, batch.baseOffset());
        assertEquals(scenario.maxTimestamp(), batch.maxTimestamp());
        assertEquals(scenario.timestampType, batch.timestampType());
        assertEquals(compression, batch.compressionType());
        assertEquals(scenario.producerId, batch.producerId());
        assertEquals(scenario.producerEpoch, batch.producerEpoch());
        assertEquals(scenario.baseSequence, batch.baseSequence());
        int i = 0;
        try (RecordIterator records = batch.records()) {
            while (records.hasNext()) {
                Record record = records.next();
                Scenario.Input input = scenario.records.get(i);
                assertEquals(scenario.baseOffset + i, record.offset());
                assertEquals(scenario.expectedTimestamp(input), record.timestamp());
                assertBytes(input.key, record.key());
                assertBytes(input.value, record.value());
                assertArrayEquals(input.headers, record.headers());
                i++;
            }
        }
        assertEquals(scenario.records.size(), i);
    }

    private static void assertBytes(byte[] expected, ByteBuffer actual) {
        if (expected == null) {
            assertNull(actual);
            return;
        }
        assertTrue("expected " + expected.length + " bytes", actual != null);
        assertArrayEquals(expected, bytes(actual));
    }

    static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }
}
