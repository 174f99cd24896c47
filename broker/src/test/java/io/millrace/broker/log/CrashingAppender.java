package io.millrace.broker.log;

import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.utils.Time;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Semaphore;

/**
 * The victim of {@link LogCrashTest}, run in its own JVM: appends deterministic batches to one
 * partition with {@code log.flush.interval.messages=1} and prints {@code FLUSHED <offset>} for
 * each batch once {@link Log#awaitFlushed} says it is on disk, until it is killed. Up to
 * {@link #IN_FLIGHT} appends wait for their fsync at once, so fsyncs are shared (group commit).
 */
public final class CrashingAppender {

    static final String TOPIC = "crash";
    static final String FLUSHED = "FLUSHED ";
    static final int RECORDS_PER_BATCH = 2;
    private static final int IN_FLIGHT = 32;

    private CrashingAppender() {
    }

    public static void main(String[] args) throws Exception {
        LogConfig config = new LogConfig(Map.of(LogConfig.LOG_FLUSH_INTERVAL_MESSAGES_CONFIG, "1",
            LogConfig.LOG_SEGMENT_BYTES_CONFIG, "65536", LogConfig.LOG_INDEX_INTERVAL_BYTES_CONFIG, "1024"));
        LogManager manager = new LogManager(config, List.of(Path.of(args[0])), Time.SYSTEM);
        manager.startup();
        Log log = manager.getOrCreateLog(TOPIC, 0);
        PrintStream out = System.out;
        Semaphore inFlight = new Semaphore(IN_FLIGHT);
        for (long batch = log.logEndOffset() / RECORDS_PER_BATCH; ; batch++) {
            inFlight.acquire();
            long lastOffset = log.append(batchFor(batch)).lastOffset();
            log.awaitFlushed(lastOffset).whenComplete((ok, error) -> {
                if (error == null) {
                    report(out, lastOffset);
                }
                inFlight.release();
            });
        }
    }

    private static void report(PrintStream out, long offset) {
        synchronized (out) {
            out.println(FLUSHED + offset);
            out.flush();
        }
    }

    /** Batch number {@code n}: two records whose values and timestamps follow from {@code n}. */
    static ByteBuffer batchFor(long n) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0, 512);
        for (int r = 0; r < RECORDS_PER_BATCH; r++) {
            String value = "batch " + n + " record " + r + " " + "#".repeat((int) ((n * 7 + r) % 200));
            builder.append(1_700_000_000_000L + n, null, value.getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    /** The bytes batch {@code n} has once stored: offsets assigned from {@code n * RECORDS_PER_BATCH}. */
    static ByteBuffer storedBatch(long n) {
        ByteBuffer batch = batchFor(n);
        RecordBatch.wrap(batch).setBaseOffset(n * RECORDS_PER_BATCH);
        return batch;
    }
}
