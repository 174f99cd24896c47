package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.config;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.record.RecordBatchIterator;
import io.millrace.common.record.RecordIterator;
import io.millrace.testkit.MockTime;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The cleaner rewrites and merges segments while a writer appends and rolls and readers scan the
 * log from its start: every batch a reader gets is whole and valid, offsets only increase, each
 * record's value names its own offset (so no record moved), and what a key's records say only
 * moves forward. At the end each key's last record is where it was written.
 */
public class LogCompactionConcurrencyTest {

    private static final int BATCHES = 3000;
    private static final int KEYS = 40;

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final AtomicBoolean writerDone = new AtomicBoolean();

    @Test
    public void readersSeeConsistentRecordsWhileTheCleanerRewritesSegments() throws Exception {
        Path dir = temp.newFolder("race-0").toPath();
        MockTime time = new MockTime();
        // Replaced segments close after the delay, as under a LogManager, so reads already in them finish.
        ScheduledExecutorService deletes = Executors.newSingleThreadScheduledExecutor();
        LogFlusher flusher = new LogFlusher("compaction-race-flusher");
        LogContext context = new LogContext(time, LogFileOpener.DEFAULT, new LogDirFailureChannel(), flusher, deletes);
        Log log = Log.open(dir, config(LogConfig.LOG_CLEANUP_POLICY_CONFIG, "compact", LogConfig.LOG_SEGMENT_BYTES_CONFIG,
            8 * 1024, LogConfig.LOG_INDEX_INTERVAL_BYTES_CONFIG, 256, LogConfig.LOG_SEGMENT_DELETE_DELAY_MS_CONFIG, 2_000L),
            context, 0L, false);
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            Future<Integer> reader1 = threads.submit(() -> scanRepeatedly(log));
            Future<Integer> reader2 = threads.submit(() -> scanRepeatedly(log));
            Future<Integer> cleaner = threads.submit(() -> cleanRepeatedly(log, time));
            Map<String, Long> last = threads.submit(() -> write(log)).get(120, TimeUnit.SECONDS);
            assertTrue("the readers scanned", reader1.get(120, TimeUnit.SECONDS) > 0 && reader2.get(120, TimeUnit.SECONDS) > 0);
            assertTrue("the cleaner removed records during the race", cleaner.get(120, TimeUnit.SECONDS) > 0);

            log.roll();
            LogCompaction compaction = new LogCompaction(log, 1 << 20);
            compaction.clean(compaction.cleanableSegments(time.milliseconds()), time.milliseconds());
            Map<Long, String> remaining = new HashMap<>();
            scan(log, remaining);
            Map<Long, String> expected = new HashMap<>();
            last.forEach((key, offset) -> expected.put(offset, key));
            assertEquals(expected, remaining);
        } finally {
            threads.shutdownNow();
            log.close();
            deletes.shutdownNow();
            flusher.close();
        }
    }

    /** Appends keyed records whose values are their own offsets; returns each key's last offset. */
    private Map<String, Long> write(Log log) {
        Map<String, Long> last = new HashMap<>();
        try {
            for (int i = 0; i < BATCHES; i++) {
                long base = log.logEndOffset();
                RecordBatchBuilder builder = RecordBatchBuilder.create(i % 3 == 0 ? CompressionType.LZ4 : CompressionType.NONE,
                    0, 256);
                int records = 1 + i % 4;
                for (int r = 0; r < records; r++) {
                    String key = "key-" + ((i * 7 + r * 13) % KEYS);
                    builder.append(1_700_000_000_000L, key.getBytes(StandardCharsets.UTF_8),
                        Long.toString(base + r).getBytes(StandardCharsets.UTF_8));
                    last.put(key, base + r);
                }
                log.append(builder.build());
            }
            return last;
        } finally {
            writerDone.set(true);
        }
    }

    private int cleanRepeatedly(Log log, MockTime time) throws Exception {
        int removed = 0;
        while (!writerDone.get()) {
            LogCompaction compaction = new LogCompaction(log, 1 << 20);
            removed += (int) compaction.clean(compaction.cleanableSegments(time.milliseconds()), time.milliseconds())
                .recordsRemoved();
        }
        return removed;
    }

    private int scanRepeatedly(Log log) throws Exception {
        int scans = 0;
        while (!writerDone.get()) {
            scan(log, new HashMap<>());
            scans++;
        }
        return scans;
    }

    /** Reads the whole log, checking each batch and record; collects offset to key. */
    private static void scan(Log log, Map<Long, String> records) throws Exception {
        long offset = log.logStartOffset();
        long previous = -1;
        while (offset < log.logEndOffset()) {
            ByteBuffer bytes;
            try {
                bytes = log.read(offset, 64 * 1024, true).readFully();
            } catch (OffsetOutOfRangeException e) {
                return;
            }
            int whole = 0;
            for (RecordBatch batch : RecordBatchIterator.batches(bytes)) {
                batch.ensureIntact();
                assertTrue("batches only move forward", batch.baseOffset() > previous && batch.lastOffset() >= offset);
                try (RecordIterator it = batch.records()) {
                    while (it.hasNext()) {
                        Record record = it.next();
                        String value = StandardCharsets.UTF_8.decode(record.value()).toString();
                        assertEquals("a record is where it was written", Long.toString(record.offset()), value);
                        records.put(record.offset(), StandardCharsets.UTF_8.decode(record.key()).toString());
                    }
                }
                previous = batch.lastOffset();
                offset = batch.nextOffset();
                whole++;
            }
            assertTrue("a read returns at least one whole batch", whole > 0);
        }
    }
}
