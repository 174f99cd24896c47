package io.millrace.audit;

import static org.junit.Assert.assertEquals;

import io.millrace.common.TopicPartition;
import io.millrace.common.errors.MillraceException;
import io.millrace.producer.CompletedBatch;
import io.millrace.testkit.MockTime;
import java.util.Comparator;
import java.util.List;
import org.junit.Test;

/**
 * The producer tier counted a batch at a time gives the counts, bytes and latencies that counting each
 * record apart gives: records split at window edges, records without a time in the window of now,
 * failed batches and rejected records as failed.
 */
public class AcknowledgedBatchCounterTest {

    private static final long WINDOW = 60_000;
    private static final long T0 = 1_700_000_040_000L - 1_700_000_040_000L % WINDOW;

    private final MockTime time = new MockTime(T0 + 2 * WINDOW);

    @Test
    public void aBatchAcrossWindowsCountsAsEachOfItsRecordsCountedApart() {
        long[] timestamps = {T0 + 1, T0 + 5, T0 + WINDOW - 1, T0 + WINDOW, T0 + WINDOW + 30_000, T0 + 7, -1, T0 + WINDOW + 59_999};
        int[] keySizes = {3, -1, 4, 5, 0, 2, 8, 1};
        int[] valueSizes = {10, 20, -1, 30, 40, 50, 60, 70};

        AuditCounter byBatch = new AuditCounter(WINDOW, 0, time);
        new AcknowledgedBatchCounter(byBatch).onCompletion(new Batch(timestamps, keySizes, valueSizes, null));

        AuditCounter byRecord = new AuditCounter(WINDOW, 0, time);
        for (int i = 0; i < timestamps.length; i++) {
            long bytes = Math.max(0, keySizes[i]) + Math.max(0, valueSizes[i]);
            if (timestamps[i] >= 0) {
                byRecord.count("views", timestamps[i], bytes);
            } else {
                byRecord.countWithoutTime("views", bytes);
            }
        }

        List<WindowDelta> expected = sorted(byRecord.drainDue(true));
        List<WindowDelta> counted = sorted(byBatch.drainDue(true));
        assertEquals(expected, counted);
        assertEquals("two windows of the records' times and the window of now", 3, counted.size());
        assertEquals(7, counted.stream().mapToLong(WindowDelta::count).sum());
        assertEquals(1, counted.stream().mapToLong(WindowDelta::noTimeCount).sum());
    }

    @Test
    public void aBatchInOneWindowIsCountedAsItsRecordsCountedApartWhetherItsLatenciesShareABucketOrNot() {
        long now = time.milliseconds();
        long[][] batches = {
            {now - 1_000, now - 1_003, now - 1_010, now - 1_001},   // one window, one latency bucket: at once
            {now - 2, now - 900, now - 40, now - 41_000},           // one window, latencies in several buckets
        };
        for (long[] timestamps : batches) {
            int[] keySizes = new int[timestamps.length];
            int[] valueSizes = new int[timestamps.length];
            java.util.Arrays.fill(keySizes, 6);
            java.util.Arrays.fill(valueSizes, 100);
            AuditCounter byBatch = new AuditCounter(WINDOW, 0, time);
            new AcknowledgedBatchCounter(byBatch).onCompletion(new Batch(timestamps, keySizes, valueSizes, null));
            AuditCounter byRecord = new AuditCounter(WINDOW, 0, time);
            for (long timestamp : timestamps) {
                byRecord.count("views", timestamp, 106);
            }
            List<WindowDelta> counted = byBatch.drainDue(true);
            assertEquals(byRecord.drainDue(true), counted);
            assertEquals(1, counted.size());
            assertEquals(timestamps.length, counted.get(0).count());
        }
    }

    @Test
    public void aFailedBatchCountsEachOfItsRecordsAsFailedInItsWindow() {
        AuditCounter counter = new AuditCounter(WINDOW, 0, time);
        AcknowledgedBatchCounter listener = new AcknowledgedBatchCounter(counter);
        listener.onCompletion(new Batch(new long[] {T0 + 1, T0 + 2, T0 + WINDOW + 3}, new int[] {1, 1, 1}, new int[] {1, 1, 1},
            new MillraceException("refused")));
        listener.onRejection("views", T0 + WINDOW + 4, new MillraceException("no metadata"));

        List<WindowDelta> deltas = sorted(counter.drainDue(true));
        assertEquals(2, deltas.size());
        assertEquals(2, deltas.get(0).failedCount());
        assertEquals(2, deltas.get(1).failedCount());
        assertEquals(0, deltas.stream().mapToLong(WindowDelta::count).sum());
    }

    private static List<WindowDelta> sorted(List<WindowDelta> deltas) {
        return deltas.stream().sorted(Comparator.comparingLong(WindowDelta::windowStart)).toList();
    }

    /** A completed batch as a producer hands it over: the records' times and sizes, and the outcome. */
    private record Batch(long[] timestamps, int[] keySizes, int[] valueSizes, RuntimeException error)
        implements CompletedBatch {

        @Override
        public TopicPartition topicPartition() {
            return new TopicPartition("views", 0);
        }

        @Override
        public int sentRecords() {
            return timestamps.length;
        }

        @Override
        public long timestamp(int i) {
            return timestamps[i];
        }

        @Override
        public long minTimestamp() {
            return java.util.Arrays.stream(timestamps).min().orElseThrow();
        }

        @Override
        public long maxTimestamp() {
            return java.util.Arrays.stream(timestamps).max().orElseThrow();
        }

        @Override
        public long sentBytes() {
            long bytes = 0;
            for (int i = 0; i < timestamps.length; i++) {
                bytes += Math.max(0, keySizes[i]) + Math.max(0, valueSizes[i]);
            }
            return bytes;
        }

        @Override
        public int serializedKeySize(int i) {
            return keySizes[i];
        }

        @Override
        public int serializedValueSize(int i) {
            return valueSizes[i];
        }
    }
}
