package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static io.millrace.broker.log.LogTestUtils.batchWithTimestamps;
import static io.millrace.broker.log.LogTestUtils.config;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class LogTimeAndRetentionTest {

    private static final long HOUR = 3_600_000L;

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private Path dir;
    private Log log;

    @Before
    public void setUp() throws IOException {
        dir = temp.newFolder("views-2").toPath();
    }

    @After
    public void tearDown() {
        if (log != null) {
            log.close();
        }
    }

    private Log open(Object... settings) {
        log = Log.open(dir, config(settings), time);
        return log;
    }

    @Test
    public void earliestAndLatestGiveTheLogStartAndEndOffsets() {
        open();
        log.append(batch(5, "a", "b"));
        assertEquals(0, log.offsetForTimestamp(Log.EARLIEST_TIMESTAMP).orElseThrow().offset());
        assertEquals(2, log.offsetForTimestamp(Log.LATEST_TIMESTAMP).orElseThrow().offset());
    }

    @Test
    public void theFirstOffsetAtOrAfterATimestampIsFoundInEverySegment() {
        open(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 600, LogConfig.LOG_INDEX_INTERVAL_BYTES_CONFIG, 100);
        // 100 batches of 2 records, timestamps 1000, 1010, 1020, ... one per record.
        for (int i = 0; i < 100; i++) {
            log.append(batchWithTimestamps(1000 + 20L * i, 1010 + 20L * i));
        }
        assertTrue(log.numberOfSegments() > 5);
        for (long offset = 0; offset < 200; offset++) {
            long timestamp = 1000 + 10 * offset;
            assertEquals(new TimestampAndOffset(timestamp, offset), log.offsetForTimestamp(timestamp).orElseThrow());
            assertEquals("just after the previous record", offset, log.offsetForTimestamp(timestamp - 9).orElseThrow().offset());
        }
        assertEquals(Optional.empty(), log.offsetForTimestamp(1000 + 10 * 200));
    }

    @Test
    public void timestampLookupsSurviveARestart() {
        open(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 600);
        for (int i = 0; i < 30; i++) {
            log.append(batchWithTimestamps(100L * i));
        }
        log.close();
        open(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 600);
        assertEquals(17, log.offsetForTimestamp(1650).orElseThrow().offset());
    }

    @Test
    public void retentionByTimeDeletesClosedSegmentsWhoseNewestRecordIsOlderThanRetentionMs() throws IOException {
        open(LogConfig.LOG_RETENTION_MS_CONFIG, 10 * HOUR, LogConfig.LOG_SEGMENT_BYTES_CONFIG, 300);
        for (int i = 0; i < 20; i++) {
            log.append(batch(time.milliseconds(), "event " + i));
            time.advance(HOUR);
        }
        // Now is 20 h after the first batch; segments whose newest batch is over 10 h old go.
        List<Long> before = log.segmentBaseOffsets();
        int deleted = log.deleteOldSegments();
        assertTrue(deleted > 0);
        assertEquals(before.subList(deleted, before.size()), log.segmentBaseOffsets());
        assertEquals(log.segmentBaseOffsets().get(0).longValue(), log.logStartOffset());
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(0, 100, true));
        long oldestKeptTimestamp = time.milliseconds() - 10 * HOUR;
        assertTrue(log.offsetForTimestamp(0).orElseThrow().timestamp() >= oldestKeptTimestamp - 3 * HOUR);
        assertFalse("deleted files are gone", Files.exists(LogFileNames.logFile(dir, 0)));
    }

    @Test
    public void retentionNeverDeletesTheActiveSegment() {
        open(LogConfig.LOG_RETENTION_MS_CONFIG, 1L);
        log.append(batch(time.milliseconds(), "only"));
        time.advance(10 * HOUR);
        assertEquals(0, log.deleteOldSegments());
        assertEquals(1, log.logEndOffset());
    }

    @Test
    public void retentionBySizeDeletesOldestSegmentsWhileTheRestStillHoldsRetentionBytes() {
        open(LogConfig.LOG_RETENTION_BYTES_CONFIG, 1000L, LogConfig.LOG_SEGMENT_BYTES_CONFIG, 300);
        for (int i = 0; i < 30; i++) {
            log.append(batch(time.milliseconds(), "payload " + i));
        }
        long segmentSize = log.size() / log.numberOfSegments();
        assertTrue(log.deleteOldSegments() > 0);
        // Kafka's rule: a segment goes only if what remains is still at least retention.bytes.
        assertTrue("at least retention.bytes kept", log.size() >= 1000);
        assertTrue("but less than a segment more", log.size() < 1000 + segmentSize);
        assertEquals(0, log.deleteOldSegments());
    }

    @Test
    public void retentionMsWinsOverRetentionHoursAndMinusOneKeepsForever() {
        assertEquals(168 * HOUR, LogConfig.defaults().retentionMs());
        assertEquals(5 * HOUR, config(LogConfig.LOG_RETENTION_HOURS_CONFIG, 5).retentionMs());
        assertEquals(42, config(LogConfig.LOG_RETENTION_HOURS_CONFIG, 5, LogConfig.LOG_RETENTION_MS_CONFIG, 42L).retentionMs());
        open(LogConfig.LOG_RETENTION_MS_CONFIG, -1L, LogConfig.LOG_SEGMENT_BYTES_CONFIG, 200);
        for (int i = 0; i < 10; i++) {
            log.append(batch(0, "ancient " + i));
        }
        time.advance(1000 * HOUR);
        assertEquals(0, log.deleteOldSegments());
    }

    @Test
    public void topicOverridesChangeRetentionOfARunningLog() {
        open(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 200);
        for (int i = 0; i < 10; i++) {
            log.append(batch(time.milliseconds(), "x" + i));
        }
        time.advance(HOUR);
        assertEquals(0, log.deleteOldSegments());
        log.updateConfig(log.config().withOverrides(java.util.Map.of(LogConfig.RETENTION_MS_CONFIG, "60000")));
        int closedSegments = log.numberOfSegments() - 1;
        assertEquals(closedSegments, log.deleteOldSegments());
        assertEquals(1, log.numberOfSegments());
    }
}
