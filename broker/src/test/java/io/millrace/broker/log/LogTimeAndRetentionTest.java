package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static io.millrace.broker.log.LogTestUtils.batchWithTimestamps;
import static io.millrace.broker.log.LogTestUtils.config;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
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
    public void timestampLookupsFindTheExactRecordInsideCompressedBatches() {
        open();
        for (CompressionType codec : CompressionType.values()) {
            long base = 10_000L * (codec.id + 1);
            RecordBatchBuilder builder = RecordBatchBuilder.create(codec, 0, 256);
            for (int i = 0; i < 5; i++) {
                builder.append(base + 10L * i, null, ("v" + i).getBytes(StandardCharsets.UTF_8));
            }
            long first = log.append(builder.build()).firstOffset();
            assertEquals(codec.name(), new TimestampAndOffset(base + 30, first + 3), log.offsetForTimestamp(base + 25).orElseThrow());
            assertEquals(codec.name(), first + 4, log.offsetForTimestamp(base + 40).orElseThrow().offset());
        }
    }

    /** One batch of {@code codec} with one record per timestamp. */
    private static ByteBuffer compressed(CompressionType codec, long... timestamps) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(codec, 0, 256);
        for (long timestamp : timestamps) {
            builder.append(timestamp, null, ("v" + timestamp).getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    @Test
    public void maxTimestampOfAnEmptyLogIsEmpty() {
        open();
        assertEquals(Optional.empty(), log.offsetOfMaxTimestamp());
    }

    @Test
    public void maxTimestampIsTheFirstRecordWithTheLargestTimestampAcrossSegmentsAndCodecs() {
        open(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 400);
        long offset = 0;
        long peakOffset = -1;
        // Timestamps rise and fall; the peak (9000) sits inside a compressed batch in a middle
        // segment, after a smaller record, and appears again later: the first one counts.
        for (CompressionType codec : CompressionType.values()) {
            long base = 1000L * codec.id;
            log.append(compressed(codec, base + 3, base + 1, base + 2));
            offset += 3;
            if (codec == CompressionType.values()[CompressionType.values().length / 2]) {
                log.append(compressed(codec, 500, 9000, 7000, 9000));
                peakOffset = offset + 1;
                offset += 4;
            }
        }
        log.append(compressed(CompressionType.GZIP, 9000, 8999));
        for (int i = 0; i < 10; i++) {
            log.append(batchWithTimestamps(100 + i, 50));
        }
        assertTrue("needs several segments: " + log.numberOfSegments(), log.numberOfSegments() >= 4);
        TimestampAndOffset expected = new TimestampAndOffset(9000, peakOffset);
        assertEquals(expected, log.offsetOfMaxTimestamp().orElseThrow());

        log.close();
        open(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 400);
        assertEquals("after a restart", expected, log.offsetOfMaxTimestamp().orElseThrow());
    }

    @Test
    public void equalMaxTimestampsInSeveralSegmentsGiveTheEarliestOffset() {
        open(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 300);
        for (int i = 0; i < 20; i++) {
            log.append(batchWithTimestamps(10 + i, 5000, 7));
        }
        assertTrue(log.numberOfSegments() > 2);
        assertEquals(new TimestampAndOffset(5000, 1), log.offsetOfMaxTimestamp().orElseThrow());
    }

    @Test
    public void maxTimestampWithLogAppendTimeIsTheFirstBatchStampedLast() {
        open(MessageTimestampConfig.LOG_MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime");
        log.append(batchWithTimestamps(1, 2));
        time.advance(10);
        long first = log.append(batchWithTimestamps(3, 4, 5)).firstOffset();
        log.append(batchWithTimestamps(6));
        assertEquals(new TimestampAndOffset(time.milliseconds(), first), log.offsetOfMaxTimestamp().orElseThrow());
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

    @Test
    public void aSliceOfADeletedSegmentStaysReadableUntilTheDeleteDelayPasses() throws IOException {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        LogContext context = new LogContext(time, LogFileOpener.DEFAULT, new LogDirFailureChannel(),
            new LogFlusher("test-flusher"), scheduler);
        try {
            log = Log.open(dir, config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 200, LogConfig.LOG_RETENTION_MS_CONFIG, 1000L),
                context, 0, true);
            for (int i = 0; i < 5; i++) {
                log.append(batch(time.milliseconds(), "soon deleted " + i));
            }
            FileSlice inFlight = log.read(0, 10_000, true);
            List<ByteBuffer> before = LogTestUtils.batches(inFlight).stream().map(RecordBatch::slice).toList();
            time.advance(2000);
            assertTrue(log.deleteOldSegments() > 0);

            assertTrue(Files.exists(LogFileNames.deletedFile(LogFileNames.logFile(dir, 0))));
            assertFalse(Files.exists(LogFileNames.logFile(dir, 0)));
            assertEquals(before, LogTestUtils.batches(inFlight).stream().map(RecordBatch::slice).toList());
            assertFalse(context.failureChannel().isOffline(dir.getParent()));
            assertThrows(OffsetOutOfRangeException.class, () -> log.read(0, 100, true));
        } finally {
            scheduler.shutdownNow();
            log.close();
            log = null;
            context.flusher().close();
        }
    }
}
