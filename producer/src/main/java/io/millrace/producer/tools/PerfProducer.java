package io.millrace.producer.tools;

import io.millrace.common.serialization.ByteArraySerializer;
import io.millrace.producer.MillraceProducer;
import io.millrace.producer.ProducerRecord;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code bin/millrace perf-producer}: sends records of a fixed size as fast as allowed and reports
 * throughput and latency (send to callback), in the manner of Kafka's producer performance test:
 *
 * <pre>
 * --topic NAME --num-records N --record-size BYTES --throughput RECORDS_PER_S (-1: unlimited)
 * [--bootstrap-server HOST:PORT | --zookeeper HOST:PORT] [--producer-props KEY=VALUE ...]
 * </pre>
 *
 * It prints a line every five seconds and a summary at the end:
 * {@code N records sent, R records/sec (M MB/sec), A ms avg latency, X ms max latency, P ms 50th, ...}.
 */
public final class PerfProducer {

    private static final long REPORT_INTERVAL_NS = TimeUnit.SECONDS.toNanos(5);
    private static final int MAX_SAMPLES = 1_000_000;

    /** The figures of the summary line. Latencies in milliseconds. */
    public record Summary(long records, double recordsPerSec, double mbPerSec, double avgLatencyMs, double maxLatencyMs,
                          double p50Ms, double p95Ms, double p99Ms, double p999Ms, long errors) {

        String format() {
            return String.format(Locale.ROOT, "%d records sent, %.1f records/sec (%.2f MB/sec), %.2f ms avg latency, "
                + "%.2f ms max latency, %.2f ms 50th, %.2f ms 95th, %.2f ms 99th, %.2f ms 99.9th.",
                records, recordsPerSec, mbPerSec, avgLatencyMs, maxLatencyMs, p50Ms, p95Ms, p99Ms, p999Ms);
        }
    }

    private PerfProducer() {
    }

    public static void main(String[] args) throws InterruptedException {
        try {
            Summary summary = run(args, System.out);
            System.exit(summary.errors() == 0 ? 0 : 1);
        } catch (IllegalArgumentException e) {
            System.err.println("perf-producer: " + e.getMessage());
            System.err.println("usage: perf-producer --topic NAME --num-records N --record-size BYTES --throughput N|-1 "
                + "[--bootstrap-server HOST:PORT | --zookeeper HOST:PORT] [--producer-props KEY=VALUE ...]");
            System.exit(2);
        }
    }

    /** Runs the test, printing progress and the summary to {@code out}. */
    public static Summary run(String[] args, PrintStream out) throws InterruptedException {
        ToolArguments options = ToolArguments.parse(args, "producer-props");
        String topic = options.require("topic");
        long numRecords = Long.parseLong(options.require("num-records"));
        int recordSize = Integer.parseInt(options.require("record-size"));
        long throughput = Long.parseLong(options.require("throughput"));
        Map<String, Object> props = ConsoleProducer.producerProps(options);
        Stats stats = new Stats(numRecords, recordSize, out);
        byte[] payload = payload(recordSize);
        try (MillraceProducer<byte[], byte[]> producer = new MillraceProducer<>(props, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            long startNs = System.nanoTime();
            for (long i = 0; i < numRecords; i++) {
                long sendNs = System.nanoTime();
                producer.send(new ProducerRecord<>(topic, payload), (metadata, e) -> stats.completed(sendNs, e));
                throttle(i + 1, throughput, startNs);
            }
        }
        Summary summary = stats.summary();
        out.println(summary.format());
        return summary;
    }

    // waits when ahead of the requested rate, so a run at N records/s spreads its records evenly
    private static void throttle(long sent, long perSecond, long startNs) {
        if (perSecond <= 0) {
            return;
        }
        long dueNs = startNs + sent * 1_000_000_000L / perSecond;
        long aheadNs = dueNs - System.nanoTime();
        if (aheadNs > 0) {
            LockSupport.parkNanos(aheadNs);
        }
    }

    private static byte[] payload(int size) {
        byte[] bytes = new byte[size];
        Random random = new Random(0);
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) ('A' + random.nextInt(26));
        }
        return bytes;
    }

    /** Latencies and counts, fed from the producer's network thread. */
    private static final class Stats {
        private final long numRecords;
        private final int recordSize;
        private final PrintStream out;
        private final int sampleEvery;
        private final long[] samplesMicros;
        private final long startNs = System.nanoTime();
        private final AtomicLong errors = new AtomicLong();
        private int samples;
        private long completed;
        private long totalMicros;
        private long maxMicros;
        private long windowStartNs = startNs;
        private long windowCount;
        private long windowMicros;

        Stats(long numRecords, int recordSize, PrintStream out) {
            this.numRecords = numRecords;
            this.recordSize = recordSize;
            this.out = out;
            this.sampleEvery = (int) Math.max(1, numRecords / MAX_SAMPLES);
            this.samplesMicros = new long[(int) Math.min(numRecords, MAX_SAMPLES) + 1];
        }

        synchronized void completed(long sendNs, Exception error) {
            long nowNs = System.nanoTime();
            if (error != null && errors.getAndIncrement() == 0) {
                out.println("perf-producer: a record failed: " + error);
            }
            long micros = (nowNs - sendNs) / 1_000;
            if (completed % sampleEvery == 0 && samples < samplesMicros.length) {
                samplesMicros[samples++] = micros;
            }
            completed++;
            totalMicros += micros;
            maxMicros = Math.max(maxMicros, micros);
            windowCount++;
            windowMicros += micros;
            if (nowNs - windowStartNs >= REPORT_INTERVAL_NS) {
                double seconds = (nowNs - windowStartNs) / 1e9;
                out.printf(Locale.ROOT, "%d records sent, %.1f records/sec (%.2f MB/sec), %.2f ms avg latency.%n",
                    windowCount, windowCount / seconds, windowCount * (double) recordSize / seconds / (1024 * 1024),
                    windowMicros / 1000.0 / windowCount);
                windowStartNs = nowNs;
                windowCount = 0;
                windowMicros = 0;
            }
        }

        synchronized Summary summary() {
            double seconds = Math.max(1e-9, (System.nanoTime() - startNs) / 1e9);
            long[] sorted = Arrays.copyOf(samplesMicros, samples);
            Arrays.sort(sorted);
            return new Summary(completed, completed / seconds, completed * (double) recordSize / seconds / (1024 * 1024),
                completed == 0 ? 0 : totalMicros / 1000.0 / completed, maxMicros / 1000.0,
                percentile(sorted, 0.5), percentile(sorted, 0.95), percentile(sorted, 0.99), percentile(sorted, 0.999),
                errors.get());
        }

        private static double percentile(long[] sorted, double p) {
            return sorted.length == 0 ? 0 : sorted[(int) Math.min(sorted.length - 1, p * sorted.length)] / 1000.0;
        }

        @Override
        public String toString() {
            return completed + " of " + numRecords;
        }
    }
}
