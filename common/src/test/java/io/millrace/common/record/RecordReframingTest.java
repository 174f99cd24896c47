package io.millrace.common.record;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/**
 * {@link RecordBatchBuilder#tryAppendRecordsOf}: records of other batches copied into one, only their
 * deltas written again, so that a copier can fill large batches from small fetched ones.
 */
public class RecordReframingTest {

    private record Expected(long timestamp, String key, String value, String header) {
    }

    private static ByteBuffer source(CompressionType compression, long baseOffset, long firstTimestamp, int count,
                                     List<Expected> expected) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(compression, baseOffset, 512);
        for (int i = 0; i < count; i++) {
            long timestamp = firstTimestamp + (i % 2 == 0 ? i * 1_000L : -i);   // times need not grow
            String key = i == 1 ? null : "k" + baseOffset + "-" + i;
            String value = "v".repeat(i * 40) + i;   // lengths whose varints take one and two bytes
            Header[] headers = i % 3 == 0 ? new Header[] {new Header("h", ("x" + i).getBytes(StandardCharsets.UTF_8))}
                : new Header[0];
            builder.append(timestamp, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8), headers);
            expected.add(new Expected(timestamp, key, value, headers.length == 0 ? null : "x" + i));
        }
        return builder.build();
    }

    @Test
    public void recordsOfSeveralBatchesReadBackInOrderWithTheirTimesKeysValuesAndHeaders() {
        for (CompressionType target : new CompressionType[] {CompressionType.NONE, CompressionType.ZSTD}) {
            List<Expected> expected = new ArrayList<>();
            ByteBuffer first = source(CompressionType.NONE, 500L, 1_700_000_000_000L, 6, expected);
            ByteBuffer second = source(CompressionType.GZIP, 9_000L, 1_600_000_000_000L, 5, expected);
            ByteBuffer third = source(CompressionType.NONE, 12L, 1_800_000_000_000L, 7, expected);
            RecordBatchBuilder merged = RecordBatchBuilder.create(target, 0L, 64);
            assertEquals(6, merged.tryAppendRecordsOf(RecordBatch.wrap(first), 1_000_000));
            assertEquals(5, merged.tryAppendRecordsOf(RecordBatch.wrap(second), 1_000_000));
            assertEquals(7, merged.tryAppendRecordsOf(RecordBatch.wrap(third), 1_000_000));
            RecordBatch batch = RecordBatch.wrap(merged.build());

            batch.ensureValid();
            assertEquals(target, batch.compressionType());
            assertEquals(18, batch.recordCount());
            assertEquals(1_800_000_000_000L + 6_000L, batch.maxTimestamp());
            RecordIterator records = batch.records();
            for (int i = 0; i < expected.size(); i++) {
                Record record = records.next();
                Expected want = expected.get(i);
                assertEquals(i, record.offset());
                assertEquals(want.timestamp(), record.timestamp());
                assertEquals(want.key(), record.key() == null ? null : StandardCharsets.UTF_8.decode(record.key()).toString());
                assertEquals(want.value(), StandardCharsets.UTF_8.decode(record.value()).toString());
                if (want.header() == null) {
                    assertEquals(0, record.headerCount());
                } else {
                    assertEquals(want.header(), new String(record.headers()[0].value(), StandardCharsets.UTF_8));
                }
            }
        }
    }

    @Test
    public void recordsThatWouldPassTheLimitAreNotAppendedAtAllButAnEmptyBatchTakesThem() {
        List<Expected> expected = new ArrayList<>();
        RecordBatch big = RecordBatch.wrap(source(CompressionType.NONE, 0L, 1_700_000_000_000L, 7, expected));
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 64);
        assertEquals("an empty batch takes any", 7, builder.tryAppendRecordsOf(big, 100));
        int size = builder.estimatedSizeInBytes();
        assertEquals(-1, builder.tryAppendRecordsOf(big, size + big.sizeInBytes()));
        assertEquals(size, builder.estimatedSizeInBytes());
        assertEquals(7, builder.recordCount());
        assertTrue(builder.tryAppendRecordsOf(big, size + 2 * big.sizeInBytes()) == 7);
        RecordBatch built = RecordBatch.wrap(builder.build());
        built.ensureValid();
        assertEquals(14, built.recordCount());
        assertEquals("the first record's header kept", 1, built.records().next().headerCount());
    }
}
