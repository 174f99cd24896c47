package io.millrace.common.record;

import static io.millrace.common.record.TestBatches.RecordBytes.simple;
import static io.millrace.common.record.TestBatches.RecordBytes.start;
import static io.millrace.common.record.TestBatches.batch;
import static io.millrace.common.record.TestBatches.concat;
import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.InvalidRecordException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/** Reading records out of batches: values, zero copy, and every way the bytes can lie. */
public class RecordReadingTest {

    private static final byte[] V = "value".getBytes(StandardCharsets.UTF_8);

    private static List<Record> readAll(ByteBuffer batch) {
        List<Record> records = new ArrayList<>();
        try (RecordIterator it = RecordBatch.wrap(batch).records()) {
            while (it.hasNext()) {
                records.add(it.next());
            }
        }
        return records;
    }

    @Test
    public void recordsReportOffsetsTimestampsKeysValuesAndHeaders() {
        Scenario scenario = Scenario.mixed();
        for (CompressionType type : CompressionType.values()) {
            List<Record> records = readAll(scenario.buildWithMillrace(type));
            assertEquals(scenario.records.size(), records.size());
            for (int i = 0; i < records.size(); i++) {
                Record record = records.get(i);
                Scenario.Input input = scenario.records.get(i);
                assertEquals(i, record.offset());
                assertEquals(input.timestamp, record.timestamp());
                assertEquals(input.key == null ? -1 : input.key.length, record.keySize());
                assertEquals(input.key != null, record.hasKey());
                assertEquals(input.value == null ? -1 : input.value.length, record.valueSize());
                assertEquals(input.value != null, record.hasValue());
                assertArrayEquals(input.headers, record.headers());
                assertEquals(input.headers.length, record.headerCount());
            }
        }
    }

    @Test
    public void uncompressedKeysAndValuesAreSlicesOfTheBatchItself() {
        ByteBuffer bytes = Scenario.mixed().buildWithMillrace(CompressionType.NONE);
        Record first = readAll(bytes).get(0);
        ByteBuffer key = first.key();
        assertSame(bytes.array(), key.array());
        assertEquals("k1", new String(key.array(), key.arrayOffset(), key.remaining(), StandardCharsets.UTF_8));
        bytes.put(key.arrayOffset(), (byte) 'K');
        assertEquals('K', first.key().get(0));
    }

    @Test
    public void aCompressedBatchInflatesOnceIntoOneBufferSharedByItsRecords() {
        ByteBuffer bytes = Scenario.mixed().buildWithMillrace(CompressionType.ZSTD);
        List<Record> records = readAll(bytes);
        byte[] inflated = records.get(0).value().array();
        assertNotSame(bytes.array(), inflated);
        for (Record record : records) {
            if (record.hasValue()) {
                assertSame(inflated, record.value().array());
            }
        }
    }

    @Test
    public void logAppendTimeGivesEveryRecordTheBatchsMaxTimestamp() {
        Scenario scenario = Scenario.logAppendTime();
        for (CompressionType type : CompressionType.values()) {
            long offset = scenario.baseOffset;
            for (Record record : readAll(scenario.buildWithMillrace(type))) {
                assertEquals(scenario.logAppendTime, record.timestamp());
                assertEquals(offset++, record.offset());
            }
            assertEquals(scenario.baseOffset + scenario.records.size(), offset);
        }
    }

    @Test
    public void nextIntoRefillsTheCallersView() {
        ByteBuffer bytes = Scenario.idempotent().buildWithMillrace(CompressionType.LZ4);
        try (RecordIterator records = RecordBatch.wrap(bytes).records()) {
            Record view = records.nextInto(null);
            long expected = 1000;
            assertEquals(expected++, view.offset());
            while (records.hasNext()) {
                assertSame(view, records.nextInto(view));
                assertEquals(expected++, view.offset());
            }
            assertEquals(1005, expected);
        }
    }

    @Test
    public void sizesAddUpToTheRecordsSection() {
        ByteBuffer bytes = Scenario.large().buildWithMillrace(CompressionType.NONE);
        int total = 0;
        for (Record record : readAll(bytes)) {
            total += record.sizeInBytes();
        }
        assertEquals(bytes.remaining() - RecordBatch.RECORDS_OFFSET, total);
    }

    @Test
    public void batchesInDirectAndReadOnlyBuffersReadTheSame() {
        Scenario scenario = Scenario.large();
        for (CompressionType type : CompressionType.values()) {
            ByteBuffer heap = scenario.buildWithMillrace(type);
            ByteBuffer direct = ByteBuffer.allocateDirect(heap.remaining() + 3);
            direct.position(3);
            direct.put(heap.duplicate()).position(3);
            List<Record> expected = readAll(heap);
            assertSameRecords(expected, readAll(direct.slice()));
            assertSameRecords(expected, readAll(heap.asReadOnlyBuffer()));
        }
    }

    private static void assertSameRecords(List<Record> expected, List<Record> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i).offset(), actual.get(i).offset());
            assertEquals(expected.get(i).key(), actual.get(i).key());
            assertEquals(expected.get(i).value(), actual.get(i).value());
        }
    }

    @Test
    public void aCompactedBatchWithGapsInItsOffsetsReads() {
        byte[] records = concat(simple(1, V), simple(4, V));
        for (CompressionType type : CompressionType.values()) {
            List<Record> read = readAll(batch(type, 2, 5, records));
            assertEquals(TestBatches.BASE_OFFSET + 1, read.get(0).offset());
            assertEquals(TestBatches.BASE_OFFSET + 4, read.get(1).offset());
        }
    }

    @Test
    public void anEmptyBatchHasNoRecords() {
        for (CompressionType type : CompressionType.values()) {
            assertTrue(readAll(batch(type, 0, 3, new byte[0])).isEmpty());
        }
    }

    @Test
    public void aNullKeyAndValueAreNullNotEmpty() {
        byte[] record = start(0, 0).varint(-1).varint(-1).varint(0).framed();
        Record read = readAll(batch(CompressionType.NONE, 1, 0, record)).get(0);
        assertNull(read.key());
        assertNull(read.value());
        assertEquals(Record.MIN_SIZE_IN_BYTES, read.sizeInBytes());
    }

    // Every way the bytes can lie, each for every codec.

    @Test
    public void aRecordLengthVarintLongerThanFiveBytesIsCorrupt() {
        expectCorrupt(1, 0, new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x01, 0, 0, 0, 0});
    }

    @Test
    public void aRecordLongerThanTheBatchIsCorrupt() {
        byte[] record = simple(0, V);
        byte[] cut = java.util.Arrays.copyOf(record, record.length - 1);
        expectCorrupt(1, 0, cut);
    }

    @Test
    public void aNegativeOrTooShortRecordLengthIsCorrupt() {
        expectCorrupt(1, 0, concat(new TestBatches.RecordBytes().varint(-5).unframed(), new byte[8]));
        expectCorrupt(1, 0, concat(new TestBatches.RecordBytes().varint(3).unframed(), new byte[8]));
    }

    @Test
    public void aKeyOrValueLengthBelowMinusOneIsInvalid() {
        expectInvalid(1, 0, start(0, 0).varint(-2).varint(-1).varint(0).framed());
        expectInvalid(1, 0, start(0, 0).varint(-1).varint(Integer.MIN_VALUE).varint(0).framed());
    }

    @Test
    public void aKeyOrValueOverrunningItsRecordIsCorrupt() {
        expectCorrupt(1, 0, start(0, 0).varint(50).raw(1, 2, 3).varint(-1).varint(0).framed());
        expectCorrupt(1, 0, start(0, 0).varint(-1).varint(Integer.MAX_VALUE).varint(0).framed());
    }

    @Test
    public void bytesLeftInsideARecordAfterItsHeadersAreCorrupt() {
        expectCorrupt(1, 0, start(0, 0).varint(-1).varint(-1).varint(0).raw(9).framed());
    }

    @Test
    public void anImpossibleHeaderCountIsCorruptBeforeAnythingIsAllocated() {
        expectCorrupt(1, 0, start(0, 0).varint(-1).varint(-1).varint(Integer.MAX_VALUE).raw(0, 0).framed());
        expectCorrupt(1, 0, start(0, 0).varint(-1).varint(-1).varint(-1).framed());
        expectCorrupt(1, 0, start(0, 0).varint(-1).varint(-1).varint(2).raw(0, 0).framed());
    }

    @Test
    public void aNegativeHeaderKeyLengthIsInvalid() {
        expectInvalid(1, 0, start(0, 0).varint(-1).varint(-1).varint(1).varint(-1).varint(-1).framed());
    }

    @Test
    public void aHeaderValueOverrunningItsRecordIsCorrupt() {
        expectCorrupt(1, 0, start(0, 0).varint(-1).varint(-1).varint(1).bytes(V).varint(100).raw(1).framed());
    }

    @Test
    public void moreRecordsClaimedThanPresentIsCorrupt() {
        expectCorrupt(3, 2, concat(simple(0, V), simple(1, V)));
        expectCorrupt(1_000_000, 999_999, simple(0, V));
    }

    @Test
    public void fewerRecordsClaimedThanPresentIsCorrupt() {
        expectCorrupt(1, 0, concat(simple(0, V), simple(1, V)));
        expectCorrupt(1, 0, concat(simple(0, V), new byte[] {0}));
        expectCorrupt(0, 0, simple(0, V));
    }

    @Test
    public void offsetDeltasThatFallBackOrPassTheLastDeltaAreInvalid() {
        expectInvalid(2, 1, concat(simple(1, V), simple(0, V)));
        expectInvalid(2, 1, concat(simple(0, V), simple(0, V)));
        expectInvalid(2, 1, concat(simple(0, V), simple(2, V)));
        expectInvalid(1, 0, simple(-1, V));
    }

    @Test
    public void theIterationEndsAfterTheFirstError() {
        ByteBuffer bytes = batch(CompressionType.NONE, 3, 2, concat(simple(0, V), simple(0, V), simple(2, V)));
        RecordIterator records = RecordBatch.wrap(bytes).records();
        records.next();
        try {
            records.next();
            fail();
        } catch (InvalidRecordException expected) {
            assertFalse(records.hasNext());
        }
    }

    @Test
    public void aCompressedBatchThatClaimsMoreRecordsThanTheLimitCanHoldFailsBeforeInflating() {
        ByteBuffer bytes = batch(CompressionType.GZIP, 1_000_000, 999_999, simple(0, V));
        try {
            RecordBatch.wrap(bytes).records(1_000_000);
            fail();
        } catch (CorruptRecordException expected) {
            assertTrue(expected.getMessage().contains("claims 1000000 records"));
        }
    }

    @Test
    public void aCompressedBatchInflatingPastTheLimitIsCorrupt() {
        byte[] big = new byte[4 << 20];
        for (CompressionType type : new CompressionType[] {CompressionType.GZIP, CompressionType.SNAPPY, CompressionType.LZ4, CompressionType.ZSTD}) {
            ByteBuffer bytes = batch(type, 1, 0, simple(0, big));
            RecordBatch.wrap(bytes).records(5 << 20).close();
            try {
                RecordBatch.wrap(bytes).records(1 << 20);
                fail(type.configName);
            } catch (CorruptRecordException expected) {
                assertTrue(expected.getMessage(), expected.getMessage().contains("past"));
            }
        }
    }

    @Test
    public void aBatchViewOverTooFewBytesIsCorruptNotAnIndexError() {
        ByteBuffer bytes = batch(CompressionType.NONE, 1, 0, simple(0, V));
        bytes.limit(bytes.limit() - 1);
        try {
            RecordBatch.wrap(bytes).records();
            fail();
        } catch (CorruptRecordException expected) {
            assertTrue(expected.getMessage().contains("truncated"));
        }
    }

    private static void expectCorrupt(int count, int lastOffsetDelta, byte[] records) {
        for (CompressionType type : CompressionType.values()) {
            try {
                readAll(batch(type, count, lastOffsetDelta, records));
                fail(type.configName + ": expected CorruptRecordException");
            } catch (CorruptRecordException expected) {
                // damaged bytes
            }
        }
    }

    private static void expectInvalid(int count, int lastOffsetDelta, byte[] records) {
        for (CompressionType type : CompressionType.values()) {
            try {
                readAll(batch(type, count, lastOffsetDelta, records));
                fail(type.configName + ": expected InvalidRecordException");
            } catch (CorruptRecordException wrongKind) {
                fail(type.configName + ": a rule violation, not damage: " + wrongKind);
            } catch (InvalidRecordException expected) {
                // well-formed bytes that break the format's rules
            }
        }
    }
}
