package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static io.millrace.broker.log.LogTestUtils.batches;
import static io.millrace.broker.log.LogTestUtils.config;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.TopicPartition;
import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.common.record.RecordBatch;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** DeleteRecords at the log layer: the log start offset moves inside a segment and is checkpointed. */
public class LogStartOffsetTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private Path dir;
    private LogManager manager;

    @Before
    public void setUp() throws IOException {
        dir = temp.newFolder("logs").toPath();
    }

    @After
    public void tearDown() {
        if (manager != null) {
            manager.shutdown();
        }
    }

    /** Small segments: every two-record batch rolls a new one. */
    private Log start() {
        manager = new LogManager(config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 120), List.of(dir), time);
        manager.startup();
        return manager.getOrCreateLog("events", 0);
    }

    private Log restart(boolean clean) {
        if (clean) {
            manager.shutdown();
        } else {
            manager.halt();
        }
        manager = new LogManager(config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 120), List.of(dir), time);
        manager.startup();
        return manager.getLog("events", 0).orElseThrow();
    }

    /** Ten batches of two records: offsets 0-1, 2-3, ..., 18-19, one segment each. */
    private void fill(Log log) {
        for (int i = 0; i < 10; i++) {
            log.append(batch(time.milliseconds(), "a" + i, "b" + i));
        }
        assertEquals(10, log.numberOfSegments());
    }

    @Test
    public void theStartMovesInsideABatchAndReadsFollowIt() throws IOException {
        Log log = start();
        fill(log);
        assertEquals(7, manager.deleteRecords(log, 7));
        assertEquals(7, log.logStartOffset());
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(6, 1000, true));
        List<RecordBatch> read = batches(log.read(7, 1000, false));
        assertEquals("the batch holding offset 7 is served whole, as in Kafka", 6, read.get(0).baseOffset());
        assertEquals(7, log.offsetForTimestamp(Log.EARLIEST_TIMESTAMP).orElseThrow().offset());
        assertEquals("a timestamp match below the start answers the start", 7,
            log.offsetForTimestamp(0L).orElseThrow().offset());
    }

    @Test
    public void segmentsWhollyBelowTheStartAreDeletedAndTheOneHoldingItStays() {
        Log log = start();
        fill(log);
        manager.deleteRecords(log, 7);
        assertEquals(List.of(6L, 8L, 10L, 12L, 14L, 16L, 18L), log.segmentBaseOffsets());
        assertFalse(Files.exists(LogFileNames.logFile(log.dir(), 0)));
        assertTrue("renamed for the delayed delete", Files.exists(LogFileNames.deletedFile(LogFileNames.logFile(log.dir(), 0))));
        manager.deleteRecords(log, 20);
        assertEquals("the active segment stays even when every offset in it is deleted", List.of(18L), log.segmentBaseOffsets());
        assertEquals(20, log.offsetForTimestamp(Log.EARLIEST_TIMESTAMP).orElseThrow().offset());
        assertEquals(0, log.read(20, 1000, true).sizeInBytes());
    }

    @Test
    public void theStartNeverMovesBackNorBeyondTheEnd() {
        Log log = start();
        fill(log);
        assertEquals(9, manager.deleteRecords(log, 9));
        assertEquals("an earlier offset changes nothing", 9, manager.deleteRecords(log, 3));
        assertThrows(OffsetOutOfRangeException.class, () -> manager.deleteRecords(log, 21));
        assertThrows(OffsetOutOfRangeException.class, () -> manager.deleteRecords(log, -1));
        assertEquals(9, log.logStartOffset());
    }

    @Test
    public void theStartSurvivesACleanRestart() {
        Log log = start();
        fill(log);
        manager.deleteRecords(log, 13);
        Log reopened = restart(true);
        assertEquals(13, reopened.logStartOffset());
        assertThrows(OffsetOutOfRangeException.class, () -> reopened.read(12, 1000, true));
        assertEquals(20, reopened.logEndOffset());
    }

    @Test
    public void theStartIsCheckpointedBeforeDeleteRecordsReturnsSoItSurvivesACrash() throws IOException {
        Log log = start();
        fill(log);
        manager.deleteRecords(log, 5);
        assertEquals(5L, (long) new OffsetCheckpointFile(dir.resolve(LogFileNames.LOG_START_OFFSET_CHECKPOINT)).read()
            .get(new TopicPartition("events", 0)));
        Log reopened = restart(false);
        assertEquals(5, reopened.logStartOffset());
        assertEquals(5, reopened.offsetForTimestamp(Log.EARLIEST_TIMESTAMP).orElseThrow().offset());
    }

    @Test
    public void aCrashThatLostDeletedRecordsStartsTheLogAfreshAtTheCheckpointedStart() throws IOException {
        Log log = start();
        fill(log);
        manager.deleteRecords(log, 20);
        Path active = LogFileNames.logFile(log.dir(), 18);
        manager.halt();
        try (FileChannel channel = FileChannel.open(active, StandardOpenOption.WRITE)) {
            channel.truncate(0);   // the crash took the unflushed last segment with it
        }
        manager = new LogManager(config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 120), List.of(dir), time);
        manager.startup();
        Log reopened = manager.getLog("events", 0).orElseThrow();
        assertEquals(20, reopened.logStartOffset());
        assertEquals(20, reopened.logEndOffset());
        assertEquals(List.of(20L), reopened.segmentBaseOffsets());
        assertEquals("offsets answered as deleted are never handed out again", 20,
            reopened.append(batch(time.milliseconds(), "after")).firstOffset());
    }

    @Test
    public void retentionStillMovesTheStartToTheNextSegmentButNeverBack() {
        manager = new LogManager(config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 120, LogConfig.LOG_RETENTION_BYTES_CONFIG, 300L),
            List.of(dir), time);
        manager.startup();
        Log log = manager.getOrCreateLog("events", 0);
        fill(log);
        manager.deleteRecords(log, 3);
        log.deleteOldSegments();
        assertTrue(log.logStartOffset() > 3);
        assertEquals((long) log.segmentBaseOffsets().get(0), log.logStartOffset());
    }
}
