package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static io.millrace.broker.log.LogTestUtils.config;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchIterator;
import io.millrace.testkit.MockTime;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Readers never see a torn log while it is truncated and written again under them: every whole
 * batch a read returns is intact and starts where the read asked, an offset removed meanwhile is
 * out of range at worst, and the directory stays online.
 */
public class LogTruncationConcurrencyTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private LogManager manager;

    @After
    public void tearDown() {
        if (manager != null) {
            manager.shutdown();
        }
    }

    @Test(timeout = 120_000)
    public void readsDuringTruncationsSeeWholeBatches() throws Exception {
        Path dir = temp.newFolder("disk").toPath();
        manager = new LogManager(config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 4096, LogConfig.LOG_INDEX_INTERVAL_BYTES_CONFIG, 256),
            List.of(dir), new MockTime());
        manager.startup();
        Log log = manager.getOrCreateLog("events", 0);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong reads = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Thread reader = new Thread(() -> readUntilStopped(log, stop, reads, failure), "reader-" + i);
            reader.start();
            readers.add(reader);
        }
        int truncations = 0;
        try {
            for (int round = 0; round < 150 && failure.get() == null; round++) {
                for (int b = 0; b < 15; b++) {
                    log.append(batch(1_700_000_000_000L, "round-" + round + "-" + b, "x", "y"));
                }
                long end = log.logEndOffset();
                if (log.truncateTo(end - ThreadLocalRandom.current().nextLong(1, Math.min(end, 60)))) {
                    truncations++;
                }
            }
        } finally {
            stop.set(true);
            for (Thread reader : readers) {
                reader.join();
            }
        }
        if (failure.get() != null) {
            throw new AssertionError("a reader failed", failure.get());
        }
        assertTrue("truncations happened: " + truncations, truncations > 100);
        assertTrue("reads happened: " + reads.get(), reads.get() > 100);
        assertFalse(manager.failureChannel().isOffline(dir));
        long offset = log.logStartOffset();
        while (offset < log.logEndOffset()) {
            RecordBatch batch = RecordBatchIterator.batches(log.read(offset, 1, true).readFully()).iterator().next();
            batch.ensureValid();
            assertEquals(offset, batch.baseOffset());
            offset = batch.nextOffset();
        }
    }

    private static void readUntilStopped(Log log, AtomicBoolean stop, AtomicLong reads, AtomicReference<Throwable> failure) {
        try {
            while (!stop.get()) {
                long end = log.logEndOffset();
                if (end == 0) {
                    continue;
                }
                long offset = ThreadLocalRandom.current().nextLong(log.logStartOffset(), end);
                try {
                    ByteBuffer bytes = log.read(offset, 2048, true).readFully();
                    boolean first = true;
                    for (RecordBatch batch : RecordBatchIterator.batches(bytes)) {
                        batch.ensureValid();
                        if (first && (batch.baseOffset() > offset || batch.lastOffset() < offset)) {
                            throw new AssertionError("read at " + offset + " began with batch " + batch.baseOffset());
                        }
                        first = false;
                    }
                    reads.incrementAndGet();
                } catch (OffsetOutOfRangeException removed) {
                    // The offset was truncated between choosing it and reading it.
                }
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        }
    }
}
