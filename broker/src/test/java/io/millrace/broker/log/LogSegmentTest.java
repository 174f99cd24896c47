package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static io.millrace.broker.log.LogTestUtils.batchWithTimestamps;
import static io.millrace.broker.log.LogTestUtils.batches;
import static io.millrace.broker.log.LogTestUtils.config;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.millrace.common.record.RecordBatch;
import io.millrace.testkit.FileCorrupter;
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

public class LogSegmentTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private final LogConfig config = config(LogConfig.LOG_INDEX_INTERVAL_BYTES_CONFIG, 1);
    private LogContext context;
    private Path dir;
    private LogSegment segment;

    @Before
    public void setUp() throws IOException {
        dir = temp.newFolder("t-0").toPath();
        context = LogContext.standalone(time);
        segment = LogSegment.create(dir, 100, config, context);
    }

    @After
    public void tearDown() throws IOException {
        segment.close();
        context.flusher().close();
    }

    /** Appends a batch at the next offset, as the log would have assigned it. */
    private ByteBuffer append(long nextOffset, ByteBuffer batch) throws IOException {
        RecordBatch.wrap(batch).setBaseOffset(nextOffset);
        segment.append(batch);
        return batch;
    }

    @Test
    public void recoverReturnsExactlyTheBytesOfAPartialWriteAndKeepsTheRest() throws IOException {
        append(100, batch(1, "a", "b"));
        append(102, batch(2, "c"));
        int valid = segment.size();
        FileCorrupter.appendZeros(segment.logFile(), 17);
        segment.close();
        segment = LogSegment.open(dir, 100, config, context);

        assertEquals(17, segment.recover());
        assertEquals(valid, segment.size());
        assertEquals(103, segment.readNextOffset());
        assertEquals(2, batches(segment.read(100, Integer.MAX_VALUE, valid, false)).size());
    }

    @Test
    public void recoverOfAnIntactSegmentTruncatesNothing() throws IOException {
        for (int i = 0; i < 20; i++) {
            append(100 + i, batch(i, "v" + i));
        }
        assertEquals(0, segment.recover());
        assertEquals(120, segment.readNextOffset());
        assertNull(segment.indexProblem());
    }

    @Test
    public void readNeverLooksPastTheGivenMaxPosition() throws IOException {
        append(100, batch(1, "a"));
        int firstEnd = segment.size();
        append(101, batch(1, "b"));
        assertNull(segment.read(101, 1000, firstEnd, true));
        assertEquals(firstEnd, segment.read(100, 1000, firstEnd, true).sizeInBytes());
    }

    @Test
    public void timestampLookupFindsTheFirstRecordAtOrAfterTheTarget() throws IOException {
        append(100, batchWithTimestamps(10, 20, 30));
        append(103, batchWithTimestamps(25, 40, 35));
        int end = segment.size();
        assertEquals(new TimestampAndOffset(10, 100), segment.findOffsetByTimestamp(5, end));
        assertEquals(new TimestampAndOffset(20, 101), segment.findOffsetByTimestamp(11, end));
        assertEquals(new TimestampAndOffset(30, 102), segment.findOffsetByTimestamp(30, end));
        assertEquals(new TimestampAndOffset(40, 104), segment.findOffsetByTimestamp(36, end));
        assertNull(segment.findOffsetByTimestamp(41, end));
    }

    @Test
    public void closedSegmentRemembersItsLargestTimestamp() throws IOException {
        append(100, batchWithTimestamps(500));
        append(101, batchWithTimestamps(700));
        append(102, batchWithTimestamps(600));
        segment.close();
        segment = LogSegment.open(dir, 100, config, context);
        assertEquals(700, segment.largestTimestamp());
        assertNull(segment.indexProblem());
    }

    @Test
    public void missingIndexFilesAreReported() throws IOException {
        append(100, batch(1, "a"));
        segment.close();
        java.nio.file.Files.delete(LogFileNames.timeIndexFile(dir, 100));
        segment = LogSegment.open(dir, 100, config, context);
        assertEquals("index files are missing", segment.indexProblem());
        assertEquals(0, segment.recover());
        assertTrue(java.nio.file.Files.exists(LogFileNames.timeIndexFile(dir, 100)));
    }

    @Test
    public void appendedBatchesAreReadBackUnchanged() throws IOException {
        ByteBuffer first = append(100, batch(1, "x", "y"));
        ByteBuffer second = append(102, batch(1, "z"));
        List<RecordBatch> read = batches(segment.read(101, Integer.MAX_VALUE, segment.size(), false));
        assertEquals(List.of(first, second), read.stream().map(RecordBatch::slice).toList());
    }
}
