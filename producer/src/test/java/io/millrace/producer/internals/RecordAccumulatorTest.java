package io.millrace.producer.internals;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertTrue;

import io.millrace.common.errors.TimeoutException;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Header;
import io.millrace.common.record.RecordBatch;
import io.millrace.testkit.MockTime;
import io.millrace.producer.Partitioner;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.Test;

public class RecordAccumulatorTest {

    private static final Header[] NO_HEADERS = new Header[0];

    private final MockTime time = new MockTime();
    private final BufferPool pool = new BufferPool(64 * 1024, 1024, time);
    private final RecordAccumulator accumulator = new RecordAccumulator(pool, 1024, CompressionType.NONE, 10, 100, time,
        new ProducerMetrics("accumulator-test", time));

    @Test
    public void recordsWithoutKeyFillOnePartitionsBatchBeforeMovingOn() throws Exception {
        for (int i = 0; i < 100; i++) {
            accumulator.append("t", Partitioner.UNASSIGNED, 4, time.milliseconds(), null, new byte[100], NO_HEADERS, null, 0);
        }
        List<ProducerBatch> batches = accumulator.incompleteBatches();
        batches.sort(Comparator.comparingLong(ProducerBatch::sequence));
        assertTrue(batches.size() >= 10);
        for (int i = 0; i < batches.size() - 1; i++) {
            ProducerBatch batch = batches.get(i);
            assertTrue(batch + " was full before the partition changed", batch.isFull());
            assertNotEquals("the sticky partition moves on when its batch is full",
                batch.topicPartition(), batches.get(i + 1).topicPartition());
        }
        assertEquals(100, batches.stream().mapToInt(ProducerBatch::recordCount).sum());
    }

    @Test
    public void recordsAlternatingBetweenPartitionsEachGoToTheirOwnPartitionsBatch() throws Exception {
        // the queue used last is kept: a record for another partition, or the same number in another topic, must not join it
        String[] topics = {"t", "t", "u", "t", "u", "u", "t"};
        int[] partitions = {0, 1, 0, 0, 1, 0, 1};
        for (int i = 0; i < topics.length; i++) {
            accumulator.append(topics[i], partitions[i], 2, time.milliseconds(), null, new byte[10], NO_HEADERS, null, 0);
        }
        Map<String, Integer> counts = new TreeMap<>();
        for (ProducerBatch batch : accumulator.incompleteBatches()) {
            counts.merge(batch.topicPartition().toString(), batch.recordCount(), Integer::sum);
        }
        assertEquals("{t-0=2, t-1=2, u-0=2, u-1=1}", counts.toString());
    }

    @Test
    public void aBatchIsBuiltInItsPooledBufferAndTheBufferComesBack() throws Exception {
        for (int i = 0; i < 5; i++) {
            accumulator.append("t", 0, 1, time.milliseconds(), "k".getBytes(), new byte[50], NO_HEADERS, null, 0);
        }
        ProducerBatch batch = accumulator.incompleteBatches().get(0);
        assertEquals(64 * 1024 - 1024, pool.availableMemory());
        batch.close();
        RecordBatch built = RecordBatch.wrap(batch.records());
        built.ensureValid();
        assertEquals(5, built.recordCount());
        assertTrue("the batch's bytes are the pooled buffer's", batch.records().array() == batch.pooledBuffer().array());
        batch.complete(0L, -1L, null, List.of());
        accumulator.deallocate(batch, false);
        assertEquals(64 * 1024, pool.availableMemory());
    }

    @Test
    public void aBatchThatFailedAfterBeingSentGivesBackItsMemoryButNotItsBuffer() throws Exception {
        accumulator.append("t", 0, 1, time.milliseconds(), "k".getBytes(), new byte[50], NO_HEADERS, null, 0);
        ProducerBatch failed = accumulator.incompleteBatches().get(0);
        failed.close();
        failed.complete(-1L, -1L, new TimeoutException("lost"), List.of());
        accumulator.deallocate(failed, true);
        assertEquals(64 * 1024, pool.availableMemory());
        accumulator.completed(failed);

        accumulator.append("t", 0, 1, time.milliseconds(), "k".getBytes(), new byte[50], NO_HEADERS, null, 0);
        ProducerBatch next = accumulator.incompleteBatches().get(0);
        assertNotSame("a request may still be writing the failed batch's bytes", failed.pooledBuffer(),
            next.pooledBuffer());
    }

    @Test
    public void aRecordLargerThanTheBatchSizeGetsABatchOfItsOwn() throws Exception {
        accumulator.append("t", 0, 1, time.milliseconds(), null, new byte[10], NO_HEADERS, null, 0);
        accumulator.append("t", 0, 1, time.milliseconds(), null, new byte[5_000], NO_HEADERS, null, 0);
        accumulator.append("t", 0, 1, time.milliseconds(), null, new byte[10], NO_HEADERS, null, 0);
        List<ProducerBatch> batches = accumulator.incompleteBatches();
        batches.sort(Comparator.comparingLong(ProducerBatch::sequence));
        assertEquals(List.of(1, 1, 1), batches.stream().map(ProducerBatch::recordCount).toList());
        assertTrue(batches.get(1).sizeInBytes() > 5_000);
    }
}
