package io.millrace.common.record;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import io.millrace.common.utils.ByteBufferOutputStream;
import java.nio.ByteBuffer;
import org.junit.Test;

/**
 * What a producer needs to build batches in fixed-size pooled buffers: the builder writes into
 * the caller's buffer, says beforehand whether a record still fits, and sizes a lone record.
 */
public class RecordBatchBuilderRoomTest {

    private static final long NOW = 1_700_000_000_000L;
    private static final Header[] NO_HEADERS = new Header[0];

    @Test
    public void recordsFillTheCallersBufferUpToTheLimitWithoutGrowingIt() {
        ByteBuffer pooled = ByteBuffer.allocate(1024);
        ByteBufferOutputStream out = new ByteBufferOutputStream(pooled);
        RecordBatchBuilder builder = new RecordBatchBuilder(out, CompressionType.NONE, TimestampType.CREATE_TIME, 0L, -1L);
        ByteBuffer value = ByteBuffer.wrap(new byte[100]);
        int appended = 0;
        while (builder.hasRoomFor(NOW + appended, null, value, NO_HEADERS, pooled.capacity())) {
            builder.append(NOW + appended, null, value.duplicate());
            appended++;
            assertTrue(builder.estimatedSizeInBytes() <= pooled.capacity());
        }
        assertSame("the builder wrote into the caller's buffer", pooled, out.buffer());
        ByteBuffer batch = builder.build();
        assertEquals(builder.estimatedSizeInBytes(), batch.remaining());
        assertTrue("the batch is close to full, not cut short", batch.remaining() > pooled.capacity() - 110);
        RecordBatch.wrap(batch).ensureValid();
        assertEquals(appended, RecordBatch.wrap(batch).recordCount());
    }

    @Test
    public void anEmptyBatchTakesItsFirstRecordWhateverItsSize() {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 16);
        assertTrue(builder.hasRoomFor(NOW, null, ByteBuffer.allocate(1000), NO_HEADERS, 10));
        builder.append(NOW, null, ByteBuffer.allocate(1000));
        assertFalse(builder.hasRoomFor(NOW, null, ByteBuffer.allocate(1), NO_HEADERS, 10));
    }

    @Test
    public void aSingleRecordBatchHasExactlyTheComputedSize() {
        ByteBuffer key = ByteBuffer.wrap("key".getBytes());
        ByteBuffer value = ByteBuffer.wrap(new byte[300]);
        Header[] headers = {new Header("h", new byte[] {1, 2})};
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 16);
        builder.append(NOW, key.duplicate(), value.duplicate(), headers);
        assertEquals(RecordBatchBuilder.sizeOfSingleRecordBatch(key, value, headers), builder.build().remaining());
    }

    @Test
    public void tryAppendDecidesAsHasRoomForAndReportsTheBytesTaken() {
        RecordBatchBuilder checked = RecordBatchBuilder.create(CompressionType.NONE, 0L, 1024);
        RecordBatchBuilder tried = RecordBatchBuilder.create(CompressionType.NONE, 0L, 1024);
        ByteBuffer key = ByteBuffer.wrap("k".getBytes());
        int limit = 700;
        for (int i = 0; i < 100; i++) {
            ByteBuffer value = ByteBuffer.wrap(new byte[40 + i]);
            long timestamp = NOW + 1_000L * i; // growing deltas: their varints lengthen
            boolean fits = checked.hasRoomFor(timestamp, key, value, NO_HEADERS, limit);
            int before = tried.estimatedSizeInBytes();
            int taken = tried.tryAppend(timestamp, key.duplicate(), value.duplicate(), NO_HEADERS, limit);
            assertEquals("record " + i, fits, taken >= 0);
            if (!fits) {
                assertEquals("nothing appended", before, tried.estimatedSizeInBytes());
                break;
            }
            checked.append(timestamp, key.duplicate(), value.duplicate());
            assertEquals(before + taken, tried.estimatedSizeInBytes());
        }
        assertTrue(tried.recordCount() > 3);
        assertEquals(checked.build(), tried.build());
        int oversized = RecordBatchBuilder.create(CompressionType.NONE, 0L, 16)
            .tryAppend(NOW, null, ByteBuffer.allocate(100), NO_HEADERS, 10);
        assertTrue("an empty batch takes an oversized record: " + oversized, oversized > 100);
    }

    @Test
    public void arraysAppendTheSameBytesAsBuffersWithEveryCodec() {
        Header[][] headerChoices = {NO_HEADERS, {new Header("trace", new byte[] {7, 8, 9}), new Header("\u00e9t\u00e9", null)}};
        byte[][] keys = {null, new byte[0], "key".getBytes(), new byte[200]};
        byte[][] values = {null, new byte[0], new byte[1], new byte[100_000]};
        for (CompressionType compression : CompressionType.values()) {
            // a pooled buffer's slice: the batch's bytes do not start at the array's first byte
            ByteBuffer pooled = ByteBuffer.allocate(1 << 20).position(17).slice();
            RecordBatchBuilder fromArrays = new RecordBatchBuilder(new ByteBufferOutputStream(pooled), compression,
                TimestampType.CREATE_TIME, 0L, -1L);
            RecordBatchBuilder fromBuffers = RecordBatchBuilder.create(compression, 0L, 64);
            int i = 0;
            for (byte[] key : keys) {
                for (byte[] value : values) {
                    Header[] headers = headerChoices[i % 2];
                    long timestamp = NOW + (i % 3 - 1) * 1_000_000L * i; // deltas of both signs and growing sizes
                    int taken = fromArrays.tryAppend(timestamp, key, value, headers, Integer.MAX_VALUE);
                    int expected = fromBuffers.tryAppend(timestamp, key == null ? null : ByteBuffer.wrap(key),
                        value == null ? null : ByteBuffer.wrap(value), headers, Integer.MAX_VALUE);
                    assertEquals(compression + ", record " + i, expected, taken);
                    i++;
                }
            }
            assertEquals(compression.toString(), fromBuffers.build(), fromArrays.build());
        }
        int taken = RecordBatchBuilder.create(CompressionType.NONE, 0L, 16).tryAppend(NOW, null, new byte[100], NO_HEADERS, 10);
        assertTrue("an empty batch takes an oversized record: " + taken, taken > 100);
    }
}
