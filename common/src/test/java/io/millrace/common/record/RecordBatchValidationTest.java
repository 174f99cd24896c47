package io.millrace.common.record;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.InvalidRecordException;
import java.nio.ByteBuffer;
import org.junit.Test;

/** {@link RecordBatch#ensureValid()}: what the broker checks before it appends a batch. */
public class RecordBatchValidationTest {

    private static ByteBuffer threeRecords() {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 7L, 256);
        builder.append(1_700_000_000_000L, "a".getBytes(), "1".getBytes());
        builder.append(1_700_000_000_005L, "b".getBytes(), "2".getBytes());
        builder.append(1_700_000_000_002L, "c".getBytes(), "3".getBytes());
        return builder.build();
    }

    @Test
    public void aBuiltBatchIsValid() {
        RecordBatch batch = RecordBatch.wrap(threeRecords());
        batch.ensureValid();
        assertTrue(batch.isValid());
        assertEquals(3, batch.recordCount());
        assertEquals(2, batch.lastOffsetDelta());
        assertEquals(1_700_000_000_005L, batch.maxTimestamp());
    }

    @Test
    public void anyFlippedBitAfterTheCrcFailsIt() {
        ByteBuffer bytes = threeRecords();
        for (int index = RecordBatch.ATTRIBUTES_OFFSET; index < bytes.limit(); index++) {
            ByteBuffer copy = ByteBuffer.wrap(TestBatches.bytes(bytes));
            copy.put(index, (byte) (copy.get(index) ^ 0x10));
            RecordBatch batch = RecordBatch.wrap(copy);
            assertFalse("byte " + index, batch.isValid());
            try {
                batch.ensureValid();
                fail("byte " + index);
            } catch (InvalidRecordException expected) {
                // a CRC mismatch, or a header check that fires before it
            }
        }
    }

    @Test
    public void aBadCrcIsCorrupt() {
        ByteBuffer bytes = threeRecords();
        bytes.putInt(RecordBatch.CRC_OFFSET, bytes.getInt(RecordBatch.CRC_OFFSET) + 1);
        expectCorrupt(bytes, "CRC");
    }

    @Test
    public void clearingTheProducerStateKeepsTheRecordsAndMakesANewValidCrc() {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.LZ4, 0L, 256)
            .producerState(4_242L, (short) 3, 17, false);
        builder.append(1_700_000_000_000L, "a".getBytes(), "1".getBytes());
        builder.append(1_700_000_000_001L, "b".getBytes(), "2".getBytes());
        RecordBatch batch = RecordBatch.wrap(builder.build());
        long before = batch.checksum();

        batch.clearProducerState();

        assertTrue(batch.isValid());
        assertTrue(before != batch.checksum());
        assertEquals(RecordBatch.NO_PRODUCER_ID, batch.producerId());
        assertEquals(RecordBatch.NO_PRODUCER_EPOCH, batch.producerEpoch());
        assertEquals(RecordBatch.NO_SEQUENCE, batch.baseSequence());
        assertEquals(CompressionType.LZ4, batch.compressionType());
        RecordIterator records = batch.records();
        assertEquals("1", java.nio.charset.StandardCharsets.UTF_8.decode(records.next().value()).toString());
        assertEquals("2", java.nio.charset.StandardCharsets.UTF_8.decode(records.next().value()).toString());
        assertFalse(records.hasNext());
    }

    @Test
    public void settingTheProducerStateOfABuiltBatchKeepsItsRecordsAndMakesANewValidCrc() {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.GZIP, 0L, 256);
        builder.append(1_700_000_000_000L, "a".getBytes(), "1".getBytes());
        builder.append(1_700_000_000_001L, "b".getBytes(), "2".getBytes());
        RecordBatch batch = RecordBatch.wrap(builder.build());

        batch.setProducerState(9_001L, (short) 4, 40);

        assertTrue(batch.isValid());
        assertEquals(9_001L, batch.producerId());
        assertEquals(4, batch.producerEpoch());
        assertEquals(40, batch.baseSequence());
        assertFalse(batch.isTransactional());
        RecordIterator records = batch.records();
        assertEquals("1", java.nio.charset.StandardCharsets.UTF_8.decode(records.next().value()).toString());
        assertEquals("2", java.nio.charset.StandardCharsets.UTF_8.decode(records.next().value()).toString());
        assertFalse(records.hasNext());
    }

    @Test(expected = IllegalStateException.class)
    public void aTransactionalBatchKeepsItsProducerId() {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 256)
            .producerState(4_242L, (short) 3, 17, true);
        builder.append(1_700_000_000_000L, "a".getBytes(), "1".getBytes());
        RecordBatch.wrap(builder.build()).clearProducerState();
    }

    @Test
    public void rewritingBaseOffsetAndLeaderEpochKeepsTheCrc() {
        RecordBatch batch = RecordBatch.wrap(threeRecords());
        long crc = batch.checksum();
        batch.setBaseOffset(1_000_000L);
        batch.setPartitionLeaderEpoch(12);
        batch.ensureValid();
        assertEquals(crc, batch.checksum());
        assertEquals(1_000_002L, batch.lastOffset());
        assertEquals(12, batch.partitionLeaderEpoch());
    }

    @Test
    public void stampingLogAppendTimeRecomputesTheCrcAndEveryRecordReportsIt() {
        RecordBatch batch = RecordBatch.wrap(threeRecords());
        batch.setLogAppendTime(1_800_000_000_000L);
        batch.ensureValid();
        assertEquals(TimestampType.LOG_APPEND_TIME, batch.timestampType());
        try (RecordIterator records = batch.records()) {
            while (records.hasNext()) {
                assertEquals(1_800_000_000_000L, records.next().timestamp());
            }
        }
    }

    @Test
    public void aMagicOtherThanTwoIsInvalidButNotCorrupt() {
        for (byte magic : new byte[] {0, 1, 3, -1}) {
            ByteBuffer bytes = threeRecords();
            bytes.put(RecordBatch.MAGIC_OFFSET, magic);
            try {
                RecordBatch.wrap(bytes).ensureValid();
                fail("magic " + magic);
            } catch (CorruptRecordException wrongKind) {
                fail("a wrong magic is a format violation, not damage: " + wrongKind);
            } catch (InvalidRecordException expected) {
                assertTrue(expected.getMessage().contains("magic"));
            }
        }
    }

    @Test
    public void aCountThatDisagreesWithTheLastOffsetDeltaIsInvalid() {
        ByteBuffer bytes = threeRecords();
        bytes.putInt(RecordBatch.RECORDS_COUNT_OFFSET, 4);
        TestBatches.fixCrc(bytes, 0);
        expectInvalid(bytes, "last offset delta");
        bytes = threeRecords();
        bytes.putInt(RecordBatch.LAST_OFFSET_DELTA_OFFSET, 1);
        TestBatches.fixCrc(bytes, 0);
        expectInvalid(bytes, "last offset delta");
    }

    @Test
    public void aZeroOrNegativeCountIsInvalid() {
        for (int count : new int[] {0, -1, Integer.MIN_VALUE}) {
            ByteBuffer bytes = threeRecords();
            bytes.putInt(RecordBatch.RECORDS_COUNT_OFFSET, count);
            TestBatches.fixCrc(bytes, 0);
            expectInvalid(bytes, "record count");
        }
    }

    @Test
    public void anUnknownCodecIdIsInvalid() {
        for (int codec = 5; codec <= 7; codec++) {
            ByteBuffer bytes = threeRecords();
            bytes.putShort(RecordBatch.ATTRIBUTES_OFFSET, (short) codec);
            TestBatches.fixCrc(bytes, 0);
            expectInvalid(bytes, "codec");
        }
    }

    @Test
    public void aLengthBelowTheMinimumIsCorrupt() {
        ByteBuffer bytes = threeRecords();
        bytes.putInt(RecordBatch.LENGTH_OFFSET, RecordBatch.MIN_LENGTH - 1);
        expectCorrupt(bytes, "below the minimum");
    }

    @Test
    public void aLengthPastTheBufferIsCorrupt() {
        ByteBuffer bytes = threeRecords();
        bytes.putInt(RecordBatch.LENGTH_OFFSET, bytes.getInt(RecordBatch.LENGTH_OFFSET) + 1);
        expectCorrupt(bytes, "truncated");
        assertFalse(RecordBatch.wrap(bytes).isValid());
    }

    @Test
    public void aBufferShorterThanTheHeaderIsCorrupt() {
        ByteBuffer bytes = threeRecords();
        bytes.limit(RecordBatch.HEADER_SIZE - 1);
        expectCorrupt(bytes, "truncated");
        assertFalse(RecordBatch.wrap(bytes).isValid());
    }

    private static void expectCorrupt(ByteBuffer bytes, String messagePart) {
        try {
            RecordBatch.wrap(bytes).ensureValid();
            fail("expected CorruptRecordException mentioning " + messagePart);
        } catch (CorruptRecordException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains(messagePart));
        }
    }

    private static void expectInvalid(ByteBuffer bytes, String messagePart) {
        try {
            RecordBatch.wrap(bytes).ensureValid();
            fail("expected InvalidRecordException mentioning " + messagePart);
        } catch (InvalidRecordException expected) {
            assertTrue(expected.getMessage(), expected.getMessage().contains(messagePart));
        }
    }
}
