package io.millrace.common.record;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.common.errors.CorruptRecordException;
import java.nio.ByteBuffer;
import java.util.NoSuchElementException;
import org.junit.Test;

public class RecordBatchIteratorTest {

    private static ByteBuffer batch(long baseOffset, int records) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, baseOffset, 256);
        for (int i = 0; i < records; i++) {
            builder.append(1_700_000_000_000L + i, null, ("value-" + i).getBytes());
        }
        return builder.build();
    }

    private static ByteBuffer concat(ByteBuffer... batches) {
        int size = 0;
        for (ByteBuffer b : batches) {
            size += b.remaining();
        }
        ByteBuffer all = ByteBuffer.allocate(size);
        for (ByteBuffer b : batches) {
            all.put(b.duplicate());
        }
        return all.flip();
    }

    @Test
    public void walksBatchesLaidBackToBack() {
        ByteBuffer a = batch(0, 3);
        ByteBuffer b = batch(3, 1);
        ByteBuffer c = batch(4, 5);
        ByteBuffer all = concat(a, b, c);
        RecordBatchIterator batches = new RecordBatchIterator(all);
        assertEquals(0L, batches.next().baseOffset());
        assertEquals(a.remaining(), batches.position());
        assertEquals(3L, batches.next().baseOffset());
        RecordBatch last = batches.next();
        assertEquals(4L, last.baseOffset());
        assertEquals(8L, last.lastOffset());
        assertFalse(batches.hasNext());
        assertEquals(0, batches.truncatedBytes());
        assertEquals(0, all.position());
        assertEquals(all.capacity(), all.limit());
    }

    @Test
    public void stopsAtATruncatedTailAndReportsItsSize() {
        ByteBuffer a = batch(0, 2);
        ByteBuffer b = batch(2, 4);
        ByteBuffer all = concat(a, b);
        for (int cut = 1; cut < b.remaining(); cut++) {
            ByteBuffer fetched = all.duplicate().limit(all.limit() - cut);
            RecordBatchIterator batches = new RecordBatchIterator(fetched);
            assertEquals(0L, batches.next().baseOffset());
            assertFalse("cut " + cut, batches.hasNext());
            assertEquals("cut " + cut, b.remaining() - cut, batches.truncatedBytes());
        }
    }

    @Test
    public void startsAtTheBuffersPosition() {
        ByteBuffer all = concat(batch(0, 1), batch(1, 1));
        all.position(batch(0, 1).remaining());
        RecordBatchIterator batches = new RecordBatchIterator(all);
        assertEquals(1L, batches.next().baseOffset());
        assertFalse(batches.hasNext());
    }

    @Test
    public void anEmptyBufferHoldsNoBatches() {
        RecordBatchIterator batches = new RecordBatchIterator(ByteBuffer.allocate(0));
        assertFalse(batches.hasNext());
        assertEquals(0, batches.truncatedBytes());
        try {
            batches.next();
            fail();
        } catch (NoSuchElementException expected) {
            // nothing to return
        }
    }

    @Test
    public void aLengthBelowTheMinimumIsCorruptRatherThanALoop() {
        for (int length : new int[] {-1, 0, RecordBatch.MIN_LENGTH - 1, Integer.MIN_VALUE}) {
            ByteBuffer bytes = batch(0, 1);
            bytes.putInt(RecordBatch.LENGTH_OFFSET, length);
            try {
                new RecordBatchIterator(bytes).hasNext();
                fail("length " + length);
            } catch (CorruptRecordException expected) {
                assertTrue(expected.getMessage().contains("below the minimum"));
            }
        }
    }

    @Test
    public void aHugeLengthReadsAsATruncatedTail() {
        ByteBuffer bytes = batch(0, 1);
        bytes.putInt(RecordBatch.LENGTH_OFFSET, Integer.MAX_VALUE);
        RecordBatchIterator batches = new RecordBatchIterator(bytes);
        assertFalse(batches.hasNext());
        assertEquals(bytes.remaining(), batches.truncatedBytes());
    }
}
