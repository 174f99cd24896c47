package io.millrace.consumer.internals;

import static org.junit.Assert.assertEquals;

import io.millrace.common.protocol.message.FetchResponse.AbortedTransaction;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.EndTransactionMarker;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.record.RecordBatchIterator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;

/**
 * A read-committed fetch's bytes with the aborted transactions' batches emptied: their records
 * gone, their offsets kept, everything else as fetched.
 */
public class AbortedBatchesTest {

    private static final long A = 1;
    private static final long B = 2;

    private static ByteBuffer data(long baseOffset, long pid, boolean transactional, String... values) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, baseOffset, 256)
            .producerState(pid, (short) 0, (int) baseOffset, transactional);
        for (String value : values) {
            builder.append(1_700_000_000_000L, null, value.getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    private static ByteBuffer marker(long offset, long pid, boolean commit) {
        ByteBuffer batch = new EndTransactionMarker(commit, 0).toBatch(pid, (short) 0, 1_700_000_000_000L, -1);
        RecordBatch.wrap(batch, 0).setBaseOffset(offset);
        return batch;
    }

    private static ByteBuffer concat(ByteBuffer... batches) {
        ByteBuffer out = ByteBuffer.allocate(java.util.Arrays.stream(batches).mapToInt(ByteBuffer::remaining).sum());
        for (ByteBuffer batch : batches) {
            out.put(batch.duplicate());
        }
        return out.flip();
    }

    private static List<String> values(ByteBuffer records) {
        List<String> values = new ArrayList<>();
        RecordCursor cursor = new RecordCursor(records, 0, Long.MAX_VALUE, true, null);
        while (cursor.advance()) {
            Record record = cursor.current();
            values.add(record.offset() + ":" + StandardCharsets.UTF_8.decode(record.value()));
        }
        return values;
    }

    @Test
    public void anAbortedTransactionsBatchesAreEmptiedUntilItsMarkerAndTheOffsetsStay() {
        ByteBuffer fetched = concat(
            data(0, A, true, "a0", "a1"),
            data(2, B, true, "b2", "b3"),
            data(4, A, true, "a4"),
            marker(5, A, false),
            marker(6, B, true),
            data(7, A, true, "a7"),          // A's next transaction, not aborted
            data(8, -1, false, "p8", "p9"));
        ByteBuffer filtered = AbortedBatches.emptied(fetched, List.of(new AbortedTransaction(A, 0)));

        assertEquals(List.of("2:b2", "3:b3", "7:a7", "8:p8", "9:p9"), values(filtered));
        assertEquals(RecordCursor.nextFetchOffset(fetched.duplicate(), 0), RecordCursor.nextFetchOffset(filtered, 0));
        List<long[]> ranges = new ArrayList<>();
        for (RecordBatch batch : RecordBatchIterator.batches(filtered.duplicate())) {
            ranges.add(new long[] {batch.baseOffset(), batch.lastOffset(), batch.recordCount()});
        }
        assertEquals(7, ranges.size());
        assertEquals("the aborted batch keeps its offsets, empty", List.of(0L, 1L, 0L),
            List.of(ranges.get(0)[0], ranges.get(0)[1], ranges.get(0)[2]));
    }

    @Test
    public void aTransactionAbortedFromTheMiddleOfTheFetchAndOneNamedButNotReachedLeaveTheRestAlone() {
        ByteBuffer fetched = concat(data(10, A, true, "a10"), data(11, B, true, "b11"), marker(12, B, false));
        ByteBuffer filtered = AbortedBatches.emptied(fetched, List.of(new AbortedTransaction(B, 11),
            new AbortedTransaction(A, 50)));
        assertEquals(List.of("10:a10"), values(filtered));
    }
}
