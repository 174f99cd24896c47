package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.config;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.record.RecordBatchIterator;
import io.millrace.testkit.MockTime;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * One writer appends (rolling segments, with the flusher fsyncing behind it) while readers fetch
 * random offsets and a tailing reader follows the log end. Every byte a reader gets must belong
 * to a whole, valid batch exactly as written, or to the cut-off tail of a slice.
 */
public class LogConcurrencyTest {

    private static final int BATCHES = 2500;
    private static final int READERS = 3;

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final ConcurrentHashMap<Long, ByteBuffer> written = new ConcurrentHashMap<>();
    private final AtomicBoolean writerDone = new AtomicBoolean();

    @Test
    public void readersNeverSeeAHalfWrittenOrWrongBatch() throws Exception {
        Path dir = temp.newFolder("race-0").toPath();
        Log log = Log.open(dir, config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 16 * 1024, LogConfig.LOG_INDEX_INTERVAL_BYTES_CONFIG,
            512, LogConfig.LOG_FLUSH_INTERVAL_MESSAGES_CONFIG, 200L), new MockTime());
        ExecutorService threads = Executors.newFixedThreadPool(READERS + 2);
        try {
            List<Future<Integer>> readers = new ArrayList<>();
            for (int i = 0; i < READERS; i++) {
                readers.add(threads.submit(() -> randomReader(log)));
            }
            Future<Integer> tail = threads.submit(() -> tailingReader(log));
            threads.submit(() -> writer(log)).get(60, TimeUnit.SECONDS);
            for (Future<Integer> reader : readers) {
                assertTrue("reader checked batches", reader.get(60, TimeUnit.SECONDS) > 0);
            }
            assertEquals(BATCHES, tail.get(60, TimeUnit.SECONDS).intValue());
            assertTrue("segments rolled during the race", log.numberOfSegments() > 10);
        } finally {
            threads.shutdownNow();
            log.close();
        }
    }

    private Void writer(Log log) {
        try {
            for (int i = 0; i < BATCHES; i++) {
                ByteBuffer batch = randomBatch(i);
                // The only writer knows its base offset in advance; record it before readers can see it.
                written.put(log.logEndOffset(), batch);
                log.append(batch);
            }
        } finally {
            writerDone.set(true);
        }
        return null;
    }

    private static ByteBuffer randomBatch(int i) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0, 512);
        int records = 1 + random.nextInt(4);
        for (int r = 0; r < records; r++) {
            byte[] value = new byte[random.nextInt(300)];
            random.nextBytes(value);
            builder.append(i, ("k" + i).getBytes(), value);
        }
        return builder.build();
    }

    private int randomReader(Log log) throws Exception {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int checked = 0;
        while (!writerDone.get() || checked == 0) {
            long end = log.logEndOffset();
            if (end == 0) {
                continue;
            }
            long offset = random.nextLong(end + 1);
            FileSlice slice = log.read(offset, random.nextInt(4096), random.nextBoolean());
            checked += checkSlice(slice, offset);
        }
        return checked;
    }

    /** Follows the log like a consumer and returns how many batches it saw, in order, each as written. */
    private int tailingReader(Log log) throws Exception {
        long next = 0;
        int seen = 0;
        while (seen < BATCHES) {
            FileSlice slice = log.read(next, 8192, true);
            for (RecordBatch batch : RecordBatchIterator.batches(slice.readFully())) {
                assertEquals(next, batch.baseOffset());
                assertEquals(written.get(batch.baseOffset()), batch.slice());
                next = batch.nextOffset();
                seen++;
            }
        }
        return seen;
    }

    private int checkSlice(FileSlice slice, long offset) throws Exception {
        RecordBatchIterator batches = new RecordBatchIterator(slice.readFully());
        int checked = 0;
        long expectedBase = -1;
        while (batches.hasNext()) {
            RecordBatch batch = batches.next();
            batch.ensureValid();
            if (checked == 0) {
                assertTrue("first batch holds the offset", batch.baseOffset() <= offset && offset <= batch.lastOffset());
            } else {
                assertEquals("contiguous", expectedBase, batch.baseOffset());
            }
            assertEquals("as written", written.get(batch.baseOffset()), batch.slice());
            expectedBase = batch.nextOffset();
            checked++;
        }
        return checked;
    }
}
