package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static io.millrace.broker.log.LogTestUtils.batchOfValueSize;
import static io.millrace.broker.log.LogTestUtils.batches;
import static io.millrace.broker.log.LogTestUtils.concat;
import static io.millrace.broker.log.LogTestUtils.config;
import static io.millrace.broker.log.LogTestUtils.readAll;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.common.errors.RecordBatchTooLargeException;
import io.millrace.common.errors.RecordTooLargeException;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.TimestampType;
import io.millrace.testkit.FaultyFileChannel;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class LogTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private Path dir;
    private Log log;

    @Before
    public void setUp() throws IOException {
        dir = temp.newFolder("events-0").toPath();
    }

    @After
    public void tearDown() {
        if (log != null) {
            log.close();
        }
    }

    private Log open(LogConfig config) {
        log = Log.open(dir, config, time);
        return log;
    }

    /** Appends {@code n} batches of {@code recordsPerBatch} records each and returns copies of the stored batches. */
    private List<ByteBuffer> appendBatches(int n, int recordsPerBatch) {
        List<ByteBuffer> appended = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String[] values = new String[recordsPerBatch];
            for (int r = 0; r < recordsPerBatch; r++) {
                values[r] = "batch-" + i + "-record-" + r;
            }
            ByteBuffer batch = batch(time.milliseconds(), values);
            log.append(batch);
            appended.add(batch);
        }
        return appended;
    }

    @Test
    public void appendedBatchesReadBackByteForByteAcrossManySegments() throws IOException {
        open(config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 1024, LogConfig.LOG_INDEX_INTERVAL_BYTES_CONFIG, 150));
        List<ByteBuffer> appended = appendBatches(200, 3);

        assertTrue("many segments", log.numberOfSegments() > 10);
        assertEquals(600, log.logEndOffset());
        List<RecordBatch> read = readAll(log);
        assertEquals(200, read.size());
        for (int i = 0; i < read.size(); i++) {
            assertEquals(3L * i, read.get(i).baseOffset());
            assertEquals("batch " + i, appended.get(i), LogTestUtils.bytesOf(read.get(i)));
        }
    }

    @Test
    public void everyOffsetIsFoundAtEverySegmentAndIndexBoundary() throws IOException {
        // A dense index (an entry per batch) and small segments put a boundary every few offsets.
        open(config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 700, LogConfig.LOG_INDEX_INTERVAL_BYTES_CONFIG, 1));
        appendBatches(60, 4);
        for (long offset = 0; offset < log.logEndOffset(); offset++) {
            List<RecordBatch> read = batches(log.read(offset, 1, true));
            RecordBatch first = read.get(0);
            assertTrue("batch for offset " + offset, first.baseOffset() <= offset && offset <= first.lastOffset());
            assertEquals(offset - offset % 4, first.baseOffset());
        }
    }

    @Test
    public void everyOffsetIsFoundWithASparseIndex() throws IOException {
        open(config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 4000, LogConfig.LOG_INDEX_INTERVAL_BYTES_CONFIG, 500));
        appendBatches(80, 2);
        for (long offset = 0; offset < log.logEndOffset(); offset++) {
            assertEquals(offset - offset % 2, batches(log.read(offset, 1, true)).get(0).baseOffset());
        }
    }

    @Test
    public void readAtTheLogEndIsEmptyAndBeyondItIsOutOfRange() {
        open(LogConfig.defaults());
        appendBatches(3, 1);
        assertTrue(log.read(3, 1000, true).isEmpty());
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(4, 1000, true));
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(-1, 1000, true));
        assertThrows(IllegalArgumentException.class, () -> log.read(0, -1, true));
    }

    @Test
    public void readOfAnEmptyLogAtOffsetZeroIsEmpty() {
        open(LogConfig.defaults());
        assertEquals(0, log.logEndOffset());
        assertTrue(log.read(0, 1000, false).isEmpty());
    }

    @Test
    public void aFirstBatchLargerThanMaxBytesIsReturnedWholeOnlyWhenAsked() throws IOException {
        open(LogConfig.defaults());
        log.append(batchOfValueSize(time.milliseconds(), 500));
        log.append(batchOfValueSize(time.milliseconds(), 500));
        FileSlice whole = log.read(0, 10, true);
        assertEquals(1, batches(whole).size());
        assertEquals(batches(whole).get(0).sizeInBytes(), whole.sizeInBytes());

        FileSlice cut = log.read(0, 10, false);
        assertEquals(10, cut.sizeInBytes());
        assertTrue(batches(cut).isEmpty());
    }

    @Test
    public void aSliceMayEndInsideTheLastBatchItCovers() throws IOException {
        open(LogConfig.defaults());
        appendBatches(5, 1);
        int batchSize = log.read(0, 1, true).sizeInBytes();
        FileSlice slice = log.read(0, batchSize * 2 + batchSize / 2, false);
        assertEquals(2, batches(slice).size());
    }

    @Test
    public void readsStartAtTheBatchHoldingTheOffset() throws IOException {
        open(LogConfig.defaults());
        appendBatches(4, 5);
        List<RecordBatch> read = batches(log.read(12, Integer.MAX_VALUE, false));
        assertEquals(List.of(10L, 15L), read.stream().map(RecordBatch::baseOffset).toList());
    }

    @Test
    public void offsetsAreAssignedConsecutivelyAcrossTheBatchesOfOneAppend() throws IOException {
        open(LogConfig.defaults());
        LogAppendInfo info = log.append(concat(batch(1, "a", "b"), batch(2, "c"), batch(3, "d", "e", "f")));
        assertEquals(0, info.firstOffset());
        assertEquals(5, info.lastOffset());
        assertEquals(6, info.recordCount());
        assertEquals(3, info.maxTimestamp());
        assertEquals(-1, info.logAppendTime());
        List<RecordBatch> read = batches(log.read(0, Integer.MAX_VALUE, false));
        assertEquals(List.of(0L, 2L, 3L), read.stream().map(RecordBatch::baseOffset).toList());
        assertEquals(2, log.append(batch(4, "g")).recordCount() + log.append(batch(4, "h")).firstOffset() - 6);
    }

    @Test
    public void logAppendTimeStampsEveryBatchWithTheBrokerClock() throws IOException {
        open(config(MessageTimestampConfig.LOG_MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime"));
        LogAppendInfo info = log.append(batch(42, "a"));
        assertEquals(time.milliseconds(), info.logAppendTime());
        RecordBatch stored = batches(log.read(0, 1000, true)).get(0);
        assertEquals(TimestampType.LOG_APPEND_TIME, stored.timestampType());
        assertEquals(time.milliseconds(), stored.maxTimestamp());
    }

    @Test
    public void aBatchOverMaxMessageBytesIsRejected() {
        open(config(LogConfig.MESSAGE_MAX_BYTES_CONFIG, 200));
        assertThrows(RecordTooLargeException.class, () -> log.append(batchOfValueSize(0, 300)));
        assertEquals(0, log.logEndOffset());
    }

    @Test
    public void anAppendLargerThanASegmentIsRefusedAsARecordListTooLarge() {
        open(config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 400, LogConfig.MESSAGE_MAX_BYTES_CONFIG, 2000));
        log.append(batchOfValueSize(0, 300));
        RecordBatchTooLargeException e = assertThrows(RecordBatchTooLargeException.class,
            () -> log.append(batchOfValueSize(0, 500)));
        assertTrue(e.getMessage(), e.getMessage().contains("segment of 400 bytes"));
        assertEquals(1, log.logEndOffset());
    }

    @Test
    public void defaultMaxMessageBytesIsKafkasOneMebibytePlusOverhead() {
        open(LogConfig.defaults());
        log.append(batchOfValueSize(0, 1024 * 1024 - 100));
        assertThrows(RecordTooLargeException.class, () -> log.append(batchOfValueSize(0, 1024 * 1024)));
    }

    @Test
    public void oneBadBatchRejectsTheWholeAppendWithNothingWritten() throws IOException {
        open(LogConfig.defaults());
        log.append(batch(1, "ok"));
        ByteBuffer damaged = batch(2, "damaged");
        damaged.put(damaged.limit() - 1, (byte) (damaged.get(damaged.limit() - 1) ^ 1));
        ByteBuffer all = concat(batch(2, "fine"), damaged);

        assertThrows(CorruptRecordException.class, () -> log.append(all));
        assertEquals(1, log.logEndOffset());
        assertEquals(batch(1, "ok").remaining(), log.size());
    }

    @Test
    public void aTruncatedOrEmptyAppendIsRejected() {
        open(LogConfig.defaults());
        ByteBuffer torn = batch(1, "x");
        torn.limit(torn.limit() - 3);
        assertThrows(CorruptRecordException.class, () -> log.append(torn));
        assertThrows(InvalidRecordException.class, () -> log.append(ByteBuffer.allocate(0)));
        assertEquals(0, log.size());
    }

    @Test
    public void theLogRollsWhenTheNextAppendWouldPassSegmentBytes() {
        open(config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 1000));
        int size = batch(0, "0123456789").remaining();
        int perSegment = 1000 / size;
        for (int i = 0; i < perSegment * 3; i++) {
            log.append(batch(0, "0123456789"));
        }
        assertEquals(List.of(0L, (long) perSegment, 2L * perSegment), log.segmentBaseOffsets());
    }

    @Test
    public void theLogRollsOnceANewBatchIsSegmentMsNewerThanTheSegmentsFirst() {
        open(config(LogConfig.LOG_ROLL_MS_CONFIG, 60_000L));
        log.append(batch(time.milliseconds(), "a"));
        time.advance(60_000);
        log.append(batch(time.milliseconds(), "b"));
        assertEquals(1, log.numberOfSegments());
        time.advance(1);
        log.append(batch(time.milliseconds(), "c"));
        assertEquals(List.of(0L, 2L), log.segmentBaseOffsets());
    }

    @Test
    public void producerTimestampsFarFromTheBrokerClockDoNotRollEveryAppend() {
        open(config(LogConfig.LOG_ROLL_MS_CONFIG, 60_000L));
        for (int i = 0; i < 10; i++) {
            log.append(batch(1000 + i, "old clock"));
        }
        assertEquals(1, log.numberOfSegments());
    }

    @Test
    public void batchesWithoutTimestampsRollOnTheBrokerClock() {
        open(config(LogConfig.LOG_ROLL_MS_CONFIG, 60_000L));
        log.append(batch(RecordBatch.NO_TIMESTAMP, "a"));
        time.advance(60_001);
        log.append(batch(RecordBatch.NO_TIMESTAMP, "b"));
        assertEquals(List.of(0L, 1L), log.segmentBaseOffsets());
    }

    @Test
    public void theLogRollsWhenAnIndexIsFull() {
        // Room for 4 offset-index entries (and 2 time-index entries plus the reserved final one).
        open(config(LogConfig.LOG_INDEX_SIZE_MAX_BYTES_CONFIG, 36, LogConfig.LOG_INDEX_INTERVAL_BYTES_CONFIG, 1));
        for (int i = 0; i < 10; i++) {
            log.append(batch(time.milliseconds() + i, "x"));
        }
        assertTrue("rolled on a full index", log.numberOfSegments() > 1);
    }

    @Test
    public void anExplicitRollStartsASegmentAtTheLogEndUnlessTheActiveOneIsEmpty() {
        open(LogConfig.defaults());
        log.roll();
        assertEquals(List.of(0L), log.segmentBaseOffsets());
        appendBatches(2, 2);
        log.roll();
        assertEquals(List.of(0L, 4L), log.segmentBaseOffsets());
        assertEquals(4, log.logEndOffset());
    }

    @Test
    public void closedSegmentsHaveTrimmedIndexesAndTheActiveOneIsPreallocated() throws IOException {
        open(config(LogConfig.LOG_INDEX_INTERVAL_BYTES_CONFIG, 1));
        appendBatches(5, 1);
        log.roll();
        assertEquals(4 * OffsetIndex.ENTRY_SIZE, Files.size(LogFileNames.offsetIndexFile(dir, 0)));
        assertEquals(10 * 1024 * 1024, Files.size(LogFileNames.offsetIndexFile(dir, 5)));
        log.close();
        assertEquals(0, Files.size(LogFileNames.offsetIndexFile(dir, 5)));
        log = null;
    }

    @Test
    public void segmentFilesAreNamedByTwentyDigitBaseOffset() {
        open(config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 300));
        appendBatches(10, 1);
        for (long base : log.segmentBaseOffsets()) {
            String prefix = String.format("%020d", base);
            assertTrue(Files.exists(dir.resolve(prefix + ".log")));
            assertTrue(Files.exists(dir.resolve(prefix + ".index")));
            assertTrue(Files.exists(dir.resolve(prefix + ".timeindex")));
        }
    }

    @Test
    public void aReopenedLogContinuesAtTheNextOffset() throws IOException {
        open(config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 500));
        List<ByteBuffer> before = appendBatches(20, 2);
        log.close();
        open(config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 500));
        assertEquals(40, log.logEndOffset());
        assertEquals(40, log.append(batch(1, "next")).firstOffset());
        List<RecordBatch> all = readAll(log);
        assertEquals(21, all.size());
        assertEquals(before.get(19), LogTestUtils.bytesOf(all.get(19)));
    }

    @Test
    public void flushMovesTheRecoveryPointToTheLogEnd() {
        open(LogConfig.defaults());
        appendBatches(3, 2);
        assertEquals(0, log.recoveryPoint());
        assertEquals(6, log.unflushedMessages());
        log.flush();
        assertEquals(6, log.recoveryPoint());
        assertEquals(0, log.unflushedMessages());
    }

    @Test
    public void awaitFlushedCompletesOnceTheFlusherHasFsyncedTheOffset() throws Exception {
        open(LogConfig.defaults());
        LogAppendInfo info = log.append(batch(1, "a", "b"));
        log.awaitFlushed(info.lastOffset()).get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertTrue(log.recoveryPoint() > info.lastOffset());
        assertTrue(log.awaitFlushed(info.lastOffset()).isDone());
    }

    @Test
    public void flushIntervalMessagesOfOneMakesEveryAppendDurableOffTheAppendThread() throws Exception {
        open(config(LogConfig.LOG_FLUSH_INTERVAL_MESSAGES_CONFIG, 1));
        List<java.util.concurrent.CompletableFuture<Void>> waits = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            waits.add(log.awaitFlushed(log.append(batch(i, "r" + i)).lastOffset()));
        }
        for (java.util.concurrent.CompletableFuture<Void> wait : waits) {
            wait.get(10, java.util.concurrent.TimeUnit.SECONDS);
        }
        assertEquals(50, log.recoveryPoint());
    }

    @Test
    public void awaitFlushedFailsWhenTheLogCloses() {
        open(LogConfig.defaults());
        java.util.concurrent.CompletableFuture<Void> wait = log.awaitFlushed(100);
        log.close();
        assertTrue(wait.isCompletedExceptionally());
        log = null;
    }

    @Test
    public void closedLogRejectsReadsAndAppends() {
        open(LogConfig.defaults());
        log.close();
        assertThrows(io.millrace.common.errors.KafkaStorageException.class, () -> log.append(batch(1, "x")));
        assertThrows(io.millrace.common.errors.KafkaStorageException.class, () -> log.read(0, 1, true));
        log = null;
    }

    @Test
    public void theAppendBufferKeepsItsPositionAndGetsItsOffsetsWrittenIn() {
        open(LogConfig.defaults());
        log.append(batch(1, "a"));
        ByteBuffer second = batch(1, "b");
        int position = second.position();
        log.append(second);
        assertEquals(position, second.position());
        assertEquals(1, RecordBatch.wrap(second).baseOffset());
        assertFalse(second.hasArray() && second.array().length == 0);
    }

    @Test
    public void appendsThatArriveDuringAnFsyncShareTheNextOne() throws Exception {
        FaultyFileChannel.Switch disk = new FaultyFileChannel.Switch();
        LogFileOpener slowLogFiles = (path, options) -> {
            java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(path, options);
            return path.toString().endsWith(LogFileNames.LOG_SUFFIX) ? new FaultyFileChannel(channel, disk) : channel;
        };
        LogContext context = new LogContext(time, slowLogFiles, new LogDirFailureChannel(), new LogFlusher("flusher"), null);
        try {
            log = Log.open(dir, config(LogConfig.LOG_FLUSH_INTERVAL_MESSAGES_CONFIG, 1), context, 0, true);
            disk.stallForces();
            List<java.util.concurrent.CompletableFuture<Void>> waits = new ArrayList<>();
            waits.add(log.awaitFlushed(log.append(batch(0, "first")).lastOffset()));
            for (int i = 1; i < 100; i++) {
                waits.add(log.awaitFlushed(log.append(batch(i, "queued " + i)).lastOffset()));
            }
            disk.resumeForces();
            for (java.util.concurrent.CompletableFuture<Void> wait : waits) {
                wait.get(10, java.util.concurrent.TimeUnit.SECONDS);
            }
            // The stalled fsync covered what it saw when it started; one more covered the other 99 or so.
            assertTrue("fsyncs of the .log file: " + disk.forceCount(), disk.forceCount() <= 2);
            assertEquals(100, log.recoveryPoint());
        } finally {
            log.close();
            log = null;
            context.flusher().close();
        }
    }
}
