package io.millrace.consumer;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.common.TopicPartition;
import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Header;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.record.TimestampType;
import io.millrace.common.serialization.ByteArrayDeserializer;
import io.millrace.common.utils.ByteBufferOutputStream;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.zip.CRC32C;
import org.junit.Test;

/**
 * The view API over fetched bytes against the copying API over the same bytes: the same records,
 * field by field, across batches, codecs, null keys and values, headers, control batches and
 * corrupt bytes.
 */
public class RecordViewsTest {

    private static final TopicPartition TP = new TopicPartition("views", 3);
    private static final long BASE_TIME = 1_700_000_000_000L;
    /** Bytes before the first batch, as a response has its own fields there: positions are not 0-based. */
    private static final int PREFIX = 13;
    private static final int CRC_OFFSET = 17;
    private static final int ATTRIBUTES_OFFSET = 21;
    private static final short CONTROL_FLAG = 0x20;

    @Test
    public void viewsHoldWhatTheCopyingIteratorHoldsOverSeveralBatches() {
        FetchedBatches fetched = fetched(0, batch(CompressionType.NONE, 0, 7), batch(CompressionType.NONE, 7, 5),
            batch(CompressionType.NONE, 12, 9));
        assertSameRecords(fetched, 0, Long.MAX_VALUE, 21);
        assertSameRecords(fetched, 3, 17, 14); // the range starts inside the first batch and ends inside the last
        assertSameRecords(fetched, 7, 12, 5);
    }

    @Test
    public void compressedBatchesAreInflatedOnceAndReadTheSame() {
        for (CompressionType codec : List.of(CompressionType.GZIP, CompressionType.SNAPPY, CompressionType.LZ4,
                CompressionType.ZSTD)) {
            FetchedBatches fetched = fetched(0, batch(codec, 0, 30), batch(CompressionType.NONE, 30, 4), batch(codec, 34, 30));
            assertSameRecords(fetched, 0, Long.MAX_VALUE, 64);
            assertSameRecords(fetched, 11, 50, 39);
        }
    }

    @Test
    public void nullKeysAndValuesAreMinusOneLongAndNullSlices() {
        FetchedBatches fetched = fetched(0, batch(CompressionType.NONE, 0, 12));
        RecordViews views = fetched.views(0, Long.MAX_VALUE);
        int nullKeys = 0;
        int nullValues = 0;
        while (views.advance()) {
            RecordView view = views.current();
            if (view.keyLength() < 0) {
                assertEquals(-1, view.keyLength());
                assertNull(view.key());
                nullKeys++;
            }
            if (view.valueLength() < 0) {
                assertNull(view.value());
                nullValues++;
            }
        }
        assertEquals(4, nullKeys);
        assertEquals(2, nullValues);
        assertSameRecords(fetched, 0, Long.MAX_VALUE, 12);
    }

    @Test
    public void controlBatchesAreSkippedAsTheCopyingIteratorSkipsThem() {
        FetchedBatches fetched = fetched(0, batch(CompressionType.NONE, 0, 5), control(batch(CompressionType.NONE, 5, 1)),
            batch(CompressionType.NONE, 6, 5));
        List<Long> offsets = new ArrayList<>();
        RecordViews views = fetched.views(0, Long.MAX_VALUE);
        while (views.advance()) {
            offsets.add(views.current().offset());
        }
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 6L, 7L, 8L, 9L, 10L), offsets);
        assertSameRecords(fetched, 0, Long.MAX_VALUE, 10);
    }

    @Test
    public void logAppendTimeBatchesReportTheBrokersTimeForEveryRecord() {
        ByteBufferOutputStream out = new ByteBufferOutputStream(1024);
        RecordBatchBuilder builder = new RecordBatchBuilder(out, CompressionType.NONE, TimestampType.LOG_APPEND_TIME, 40,
            BASE_TIME + 99);
        for (int i = 0; i < 3; i++) {
            builder.append(BASE_TIME + i, bytes("k" + i), bytes("v" + i));
        }
        FetchedBatches fetched = fetched(40, builder.build());
        RecordViews views = fetched.views(40, Long.MAX_VALUE);
        for (int i = 0; i < 3; i++) {
            assertTrue(views.advance());
            assertEquals(BASE_TIME + 99, views.current().timestamp());
        }
        assertFalse(views.advance());
        assertSameRecords(fetched, 40, Long.MAX_VALUE, 3);
    }

    @Test
    public void aTrailingFragmentOfABatchIsLeftForTheNextFetch() {
        ByteBuffer whole = batch(CompressionType.NONE, 5, 4);
        ByteBuffer fragment = batch(CompressionType.NONE, 9, 4).limit(30);
        FetchedBatches fetched = fetched(5, whole, fragment);
        assertSameRecords(fetched, 5, Long.MAX_VALUE, 4);
        assertEquals(9, fetched.nextOffset());
    }

    @Test
    public void aBatchFailingItsCrcIsRefusedAsTheCopyingIteratorRefusesIt() {
        ByteBuffer corrupt = batch(CompressionType.NONE, 4, 6);
        int lastByte = corrupt.limit() - 2; // a byte of the last record
        corrupt.put(lastByte, (byte) (corrupt.get(lastByte) ^ 0x5a));
        FetchedBatches fetched = fetched(0, batch(CompressionType.NONE, 0, 4), corrupt);
        RecordViews views = fetched.views(0, Long.MAX_VALUE);
        for (int i = 0; i < 4; i++) {
            assertTrue(views.advance()); // the batch before it is whole
        }
        String viewError = corruption(views::advance);
        Iterator<?> copying = fetched.iterator(0, Long.MAX_VALUE, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        String copyingError = corruption(() -> {
            while (copying.hasNext()) {
                copying.next();
            }
            return false;
        });
        assertEquals(copyingError, viewError);
        assertTrue(viewError, viewError.contains("offset 4") && viewError.contains("CRC"));
    }

    @Test
    public void aValueRunningPastItsRecordIsReportedEvenWithoutTheCrcCheck() {
        ByteBuffer batch = batch(CompressionType.NONE, 0, 1);
        // the only record is the batch's tail: Length, Attributes, TimestampDelta, OffsetDelta, KeyLength, key, ValueLength
        int valueLengthIndex = 61 + 1 + 1 + 1 + 1 + 1 + "k0".length();
        batch.put(valueLengthIndex, (byte) 0x7e); // 63 bytes, far more than the record holds
        FetchedBatches fetched = new FetchedBatches(TP, 0, 1, 0, prefixed(batch), false);
        RecordViews views = fetched.views(0, Long.MAX_VALUE);
        assertTrue(views.advance());
        corruption(() -> views.current().valueLength() > 0);
    }

    @Test
    public void theBufferHandedOutIsReadOnly() {
        RecordViews views = fetched(0, batch(CompressionType.NONE, 0, 2)).views(0, Long.MAX_VALUE);
        assertTrue(views.advance());
        RecordView view = views.current();
        try {
            view.buffer().put(view.valuePosition(), (byte) 0);
            fail("expected a read-only buffer");
        } catch (ReadOnlyBufferException expected) {
            // the fetched bytes stay as they came
        }
        assertTrue(view.value().isReadOnly());
    }

    /** The views of [from, to) and the copying iterator's records of it, field by field. */
    private static void assertSameRecords(FetchedBatches fetched, long from, long to, int expectedCount) {
        Iterator<ConsumerRecord<byte[], byte[]>> copies = fetched.iterator(from, to, new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
        RecordViews views = fetched.views(from, to);
        int count = 0;
        while (views.advance()) {
            assertTrue("the views hold more records than the copies", copies.hasNext());
            ConsumerRecord<byte[], byte[]> copy = copies.next();
            RecordView view = views.current();
            assertEquals(TP, view.partition());
            assertEquals(copy.offset(), view.offset());
            assertEquals(copy.timestamp(), view.timestamp());
            assertArrayEquals(copy.key(), read(view.buffer(), view.keyPosition(), view.keyLength()));
            assertArrayEquals(copy.value(), read(view.buffer(), view.valuePosition(), view.valueLength()));
            assertArrayEquals(copy.key(), bytes(view.key()));
            assertArrayEquals(copy.value(), bytes(view.value()));
            assertEquals(copy.headers(), List.of(view.headers()));
            count++;
        }
        assertFalse("the copies hold more records than the views", copies.hasNext());
        assertFalse("a finished cursor stays finished", views.advance());
        assertEquals(expectedCount, count);
    }

    private static String corruption(java.util.function.BooleanSupplier call) {
        try {
            call.getAsBoolean();
        } catch (CorruptRecordException e) {
            return e.getMessage();
        }
        throw new AssertionError("expected a CorruptRecordException");
    }

    /**
     * A batch of {@code count} records: key {@code k<i>} (null for every third), value {@code v<offset>}
     * (null for every fifth from the fourth), a header on every other record, timestamps a few ms apart.
     */
    private static ByteBuffer batch(CompressionType codec, long baseOffset, int count) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(codec, baseOffset, 1024);
        for (int i = 0; i < count; i++) {
            byte[] key = i % 3 == 2 ? null : bytes("k" + i);
            byte[] value = i % 5 == 3 ? null : bytes("v" + (baseOffset + i) + "-".repeat(i * 7));
            Header[] headers = i % 2 == 1 ? new Header[] {new Header("h" + i, bytes("x")), new Header("n", null)}
                : new Header[0];
            builder.append(BASE_TIME + baseOffset * 10 + i * 3, key, value, headers);
        }
        return builder.build();
    }

    /** The batch turned into a control batch, its CRC computed again. */
    private static ByteBuffer control(ByteBuffer batch) {
        batch.putShort(ATTRIBUTES_OFFSET, (short) (batch.getShort(ATTRIBUTES_OFFSET) | CONTROL_FLAG));
        CRC32C crc = new CRC32C();
        crc.update(batch.duplicate().position(ATTRIBUTES_OFFSET));
        batch.putInt(CRC_OFFSET, (int) crc.getValue());
        return batch;
    }

    private static FetchedBatches fetched(long fetchOffset, ByteBuffer... batches) {
        return new FetchedBatches(TP, fetchOffset, 1_000, 0, prefixed(batches), true);
    }

    /** The batches back to back after {@link #PREFIX} other bytes, between position and limit. */
    private static ByteBuffer prefixed(ByteBuffer... batches) {
        int size = PREFIX;
        for (ByteBuffer batch : batches) {
            size += batch.remaining();
        }
        ByteBuffer all = ByteBuffer.allocate(size).position(PREFIX);
        for (ByteBuffer batch : batches) {
            all.put(batch.duplicate());
        }
        return all.flip().position(PREFIX);
    }

    private static byte[] read(ByteBuffer buffer, int position, int length) {
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        buffer.get(position, bytes);
        return bytes;
    }

    private static byte[] bytes(ByteBuffer buffer) {
        return buffer == null ? null : read(buffer, buffer.position(), buffer.remaining());
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
