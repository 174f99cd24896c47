package io.millrace.audit;

import io.millrace.producer.CompletedBatch;
import io.millrace.producer.ProducerListener;

/**
 * The producer tier's count taken a batch at a time, as a {@link ProducerListener} of a
 * {@code MillraceProducer}: each record the broker acknowledged in the window of the timestamp it was
 * stored with, each record that failed for good apart. Per record it only reads the batch's arrays; the
 * counters are touched once per run of records in the same window, and the latency histogram once per
 * run in the same bucket, since the records of one batch mostly share both.
 */
final class AcknowledgedBatchCounter implements ProducerListener {

    private final AuditCounter counter;

    AcknowledgedBatchCounter(AuditCounter counter) {
        this.counter = counter;
    }

    @Override
    public void onCompletion(CompletedBatch batch) {
        int records = batch.sentRecords();
        String topic = batch.topicPartition().topic();
        if (batch.error() != null) {
            for (int i = 0; i < records; i++) {
                counter.countFailed(topic, batch.timestamp(i));
            }
            return;
        }
        long nowMs = counter.time().milliseconds();
        if (records > 0 && countedAtOnce(batch, topic, records, nowMs)) {
            return;
        }
        WindowRun run = new WindowRun(topic, nowMs);
        for (int i = 0; i < records; i++) {
            long bytes = Math.max(0, batch.serializedKeySize(i)) + Math.max(0, batch.serializedValueSize(i));
            long timestamp = batch.timestamp(i);
            if (timestamp >= 0) {
                run.add(timestamp, bytes);
            } else {
                counter.countWithoutTime(topic, bytes);
            }
        }
        run.finish();
    }

    /**
     * Counts the whole batch at once when all its records fall in one window and their latencies in one
     * histogram bucket, as nearly every batch's do (its records were sent within linger.ms of each other).
     */
    private boolean countedAtOnce(CompletedBatch batch, String topic, int records, long nowMs) {
        long earliest = batch.minTimestamp();
        long latest = batch.maxTimestamp();
        long windowMs = counter.windowMs();
        if (earliest < 0 || Math.floorDiv(earliest, windowMs) != Math.floorDiv(latest, windowMs)) {
            return false;
        }
        long largestLatency = Math.max(0, nowMs - earliest);
        if (LatencyHistogram.bucketOf(Math.max(0, nowMs - latest)) != LatencyHistogram.bucketOf(largestLatency)) {
            return false;
        }
        WindowCounts window = counter.window(topic, earliest);
        window.countedMany(records, batch.sentBytes());
        window.recordLatencies(largestLatency, records);
        return true;
    }

    @Override
    public void onRejection(String topic, long timestamp, Exception error) {
        counter.countFailed(topic, timestamp);
    }

    /** Consecutive records of one window, added to its counts at once. */
    private final class WindowRun {
        private final String topic;
        private final long nowMs;
        private WindowCounts window;
        private long windowStart;
        private long windowEnd;
        private long events;
        private long bytes;
        /** The latencies of the current bucket, floor to ceiling; none before the first record. */
        private long bucketFloor = Long.MAX_VALUE;
        private long bucketCeiling = Long.MIN_VALUE;
        private long inBucket;
        private long largestInBucket;

        WindowRun(String topic, long nowMs) {
            this.topic = topic;
            this.nowMs = nowMs;
        }

        void add(long timestamp, long eventBytes) {
            if (window == null || timestamp < windowStart || timestamp >= windowEnd) {
                finish();
                window = counter.window(topic, timestamp);
                windowStart = window.windowStart();
                windowEnd = windowStart + counter.windowMs();
            }
            events++;
            bytes += eventBytes;
            long latency = Math.max(0, nowMs - timestamp);
            if (latency < bucketFloor || latency > bucketCeiling) {   // the records of a batch mostly share a bucket
                finishBucket();
                int of = LatencyHistogram.bucketOf(latency);
                bucketFloor = of == 0 ? 0 : LatencyHistogram.upperBound(of - 1) + 1;
                bucketCeiling = LatencyHistogram.upperBound(of);
            }
            inBucket++;
            largestInBucket = Math.max(largestInBucket, latency);
        }

        void finish() {
            finishBucket();
            if (events > 0) {
                window.countedMany(events, bytes);
                events = 0;
                bytes = 0;
            }
        }

        private void finishBucket() {
            if (inBucket > 0) {
                window.recordLatencies(largestInBucket, inBucket);
                inBucket = 0;
                largestInBucket = 0;
            }
        }
    }
}
