package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static io.millrace.broker.log.LogTestUtils.batches;
import static io.millrace.broker.log.LogTestUtils.bytesOf;
import static io.millrace.broker.log.LogTestUtils.config;
import static io.millrace.broker.log.LogTestUtils.readAll;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.LeaderEpochCache.EpochEntry;
import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@link Log#truncateTo} and {@link Log#truncateFullyAndStartAt}: what is left reads back byte for
 * byte through the indexes, the log continues at the cut, survives a restart, and the epochs,
 * recovery point and high watermark follow; a read begun before the cut still reads what it saw.
 */
public class LogTruncationTest {

    private static final int BATCHES = 60;
    private static final int RECORDS_PER_BATCH = 3;

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private final LogConfig config = config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 1024,
        LogConfig.LOG_INDEX_INTERVAL_BYTES_CONFIG, 150);
    private Path logDir;
    private LogManager manager;
    private Log log;
    private List<ByteBuffer> stored;

    @Before
    public void setUp() throws IOException {
        logDir = temp.newFolder("disk").toPath();
        start();
        for (int i = 0; i < BATCHES; i++) {
            log.appendAsLeader(batch(time.milliseconds() + i, "r" + i + "-0", "r" + i + "-1", "r" + i + "-2"), i / 20);
        }
        stored = readAll(log).stream().map(LogTestUtils::bytesOf).toList();
        assertTrue("several segments", log.numberOfSegments() > 5);
    }

    private void start() {
        manager = new LogManager(config, List.of(logDir), time);
        manager.startup();
        log = manager.getOrCreateLog("events", 0);
    }

    private void restart() {
        manager.shutdown();
        start();
    }

    @After
    public void tearDown() {
        manager.shutdown();
    }

    /** Every offset below the end reads the batch holding it; the end reads empty; beyond it is out of range. */
    private void assertReadsThrough(long end) throws IOException {
        assertEquals(end, log.logEndOffset());
        for (long offset = 0; offset < end; offset++) {
            RecordBatch first = batches(log.read(offset, 1, true)).get(0);
            assertEquals("batch holding " + offset, (offset / RECORDS_PER_BATCH) * RECORDS_PER_BATCH, first.baseOffset());
        }
        assertTrue(log.read(end, 1000, true).isEmpty());
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(end + 1, 1000, true));
        List<ByteBuffer> left = readAll(log).stream().map(LogTestUtils::bytesOf).toList();
        assertEquals(stored.subList(0, (int) (end / RECORDS_PER_BATCH)), left);
    }

    @Test
    public void aCutInsideASegmentKeepsItsFirstPartAndDropsTheRest() throws IOException {
        List<Long> before = log.segmentBaseOffsets();
        long base = before.get(before.size() / 2);
        long cut = base + 2 * RECORDS_PER_BATCH;
        assertTrue("inside the segment", cut < before.get(before.size() / 2 + 1));
        assertTrue(log.truncateTo(cut));
        assertEquals(before.subList(0, before.size() / 2 + 1), log.segmentBaseOffsets());
        assertReadsThrough(cut);
        assertEquals(cut, log.offsetForTimestamp(Log.LATEST_TIMESTAMP).orElseThrow().offset());
        // Batch i holds timestamp t + i: the time index of the cut segment was rebuilt without the removed batches.
        long cutBatch = cut / RECORDS_PER_BATCH;
        assertTrue("a timestamp past the cut finds nothing", log.offsetForTimestamp(time.milliseconds() + cutBatch).isEmpty());
        assertEquals(cut - RECORDS_PER_BATCH, log.offsetForTimestamp(time.milliseconds() + cutBatch - 1).orElseThrow().offset());
    }

    @Test
    public void aCutAtASegmentsBaseEmptiesItAndTheLogContinuesThere() throws IOException {
        List<Long> before = log.segmentBaseOffsets();
        long cut = before.get(3);
        assertTrue(log.truncateTo(cut));
        assertEquals(before.subList(0, 4), log.segmentBaseOffsets());
        assertReadsThrough(cut);
        log.append(batch(time.milliseconds(), "x", "y", "z"));
        assertEquals(cut, readAll(log).get((int) (cut / RECORDS_PER_BATCH)).baseOffset());
        assertEquals(cut + 3, log.logEndOffset());
    }

    @Test
    public void aCutInsideABatchRemovesTheWholeBatch() throws IOException {
        assertTrue(log.truncateTo(31));
        assertReadsThrough(30);
    }

    @Test
    public void aCutAtOrPastTheEndChangesNothing() throws IOException {
        long end = log.logEndOffset();
        assertFalse(log.truncateTo(end));
        assertFalse(log.truncateTo(end + 10));
        assertReadsThrough(end);
        assertThrows(IllegalArgumentException.class, () -> log.truncateTo(-1));
    }

    @Test
    public void theLogContinuesAtTheCutAndSurvivesARestart() throws IOException {
        long cut = 75;
        log.truncateTo(cut);
        for (int i = 0; i < 10; i++) {
            log.append(batch(time.milliseconds(), "n" + i + "-0", "n" + i + "-1", "n" + i + "-2"));
        }
        List<ByteBuffer> expected = readAll(log).stream().map(LogTestUtils::bytesOf).toList();
        restart();
        assertEquals(cut + 30, log.logEndOffset());
        assertEquals(expected, readAll(log).stream().map(LogTestUtils::bytesOf).toList());
        for (long offset = 0; offset < log.logEndOffset(); offset++) {
            assertEquals(offset / 3 * 3, batches(log.read(offset, 1, true)).get(0).baseOffset());
        }
    }

    @Test
    public void aCrashAfterATruncationLoadsTheTruncatedLog() throws IOException {
        log.truncateTo(100);
        log.append(batch(time.milliseconds(), "after-0", "after-1", "after-2"));
        log.flush();
        List<ByteBuffer> expected = readAll(log).stream().map(LogTestUtils::bytesOf).toList();
        manager.halt();
        start();
        assertEquals(102, log.logEndOffset());
        assertEquals(expected, readAll(log).stream().map(LogTestUtils::bytesOf).toList());
        assertEquals(List.of(new EpochEntry(0, 0), new EpochEntry(1, 60)), log.leaderEpochCache().entries());
    }

    @Test
    public void epochsRecoveryPointAndHighWatermarkFollowTheCut() throws IOException {
        log.flush();
        log.setHighWatermarkFollowsLogEnd(false);
        log.updateHighWatermark(log.logEndOffset());
        assertEquals(List.of(new EpochEntry(0, 0), new EpochEntry(1, 60), new EpochEntry(2, 120)),
            log.leaderEpochCache().entries());
        log.truncateTo(90);
        assertEquals(List.of(new EpochEntry(0, 0), new EpochEntry(1, 60)), log.leaderEpochCache().entries());
        assertEquals(90, log.recoveryPoint());
        assertEquals(90, log.highWatermark());
        log.truncateTo(60);
        assertEquals(List.of(new EpochEntry(0, 0)), log.leaderEpochCache().entries());
        assertEquals(1, reopenEpochs().size());
    }

    private List<EpochEntry> reopenEpochs() {
        restart();
        return log.leaderEpochCache().entries();
    }

    @Test
    public void aReadBegunBeforeTheCutStillReadsWhatItSaw() throws IOException {
        long base = log.segmentBaseOffsets().get(2);
        FileSlice inCutSegment = log.read(base + 3, 10_000, true);
        FileSlice inLaterSegment = log.read(log.segmentBaseOffsets().get(4), 10_000, true);
        ByteBuffer sawCut = inCutSegment.readFully();
        ByteBuffer sawLater = inLaterSegment.readFully();
        log.truncateTo(base + 3);
        for (int i = 0; i < 20; i++) {
            log.append(batch(time.milliseconds(), "replacement-" + i, "z"));
        }
        assertEquals(sawCut, inCutSegment.readFully());
        assertEquals(sawLater, inLaterSegment.readFully());
        assertEquals(stored.get((int) (base / 3)), bytesOf(batches(log.read(base, 1, true)).get(0)));
        assertEquals(base + 3, batches(log.read(base + 3, 1, true)).get(0).baseOffset());
        assertEquals(base + 3 + 40, log.logEndOffset());
    }

    @Test
    public void aFullTruncationRestartsTheLogEmptyAtTheOffset() throws IOException {
        log.truncateFullyAndStartAt(500);
        assertEquals(500, log.logStartOffset());
        assertEquals(500, log.logEndOffset());
        assertEquals(500, log.highWatermark());
        assertEquals(500, log.recoveryPoint());
        assertEquals(List.of(500L), log.segmentBaseOffsets());
        assertEquals(List.of(), log.leaderEpochCache().entries());
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(0, 100, true));
        log.appendAsFollower(follow(500, 4));
        restart();
        assertEquals(500, log.logStartOffset());
        assertEquals(503, log.logEndOffset());
        assertEquals(List.of(new EpochEntry(4, 500)), log.leaderEpochCache().entries());
    }

    @Test
    public void aCutBelowTheLogStartIsAFullTruncation() throws IOException {
        manager.deleteRecords(log, 40);
        assertTrue(log.truncateTo(20));
        assertEquals(20, log.logStartOffset());
        assertEquals(20, log.logEndOffset());
        assertEquals(List.of(20L), log.segmentBaseOffsets());
    }

    @Test
    public void theProducersStateForgetsTheBatchesCut() {
        long producerId = 4_242L;
        for (int sequence = 0; sequence < 9; sequence += 3) {
            RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0, 256)
                .producerState(producerId, (short) 0, sequence, false);
            for (int r = 0; r < 3; r++) {
                builder.append(time.milliseconds(), null, ("p" + (sequence + r)).getBytes());
            }
            log.append(builder.build());
        }
        assertEquals(8, log.producerState().entry(producerId).orElseThrow().lastSeq());
        log.truncateTo(log.logEndOffset() - 3);
        assertEquals(5, log.producerState().entry(producerId).orElseThrow().lastSeq());
        log.truncateTo(BATCHES * RECORDS_PER_BATCH);
        assertTrue(log.producerState().entry(producerId).isEmpty());
    }

    /** A batch of three records at {@code offset} in leader epoch {@code epoch}, as a leader sends it. */
    private ByteBuffer follow(long offset, int epoch) {
        ByteBuffer batch = batch(time.milliseconds(), "f0", "f1", "f2");
        RecordBatch view = RecordBatch.wrap(batch);
        view.setBaseOffset(offset);
        view.setPartitionLeaderEpoch(epoch);
        return batch;
    }
}
