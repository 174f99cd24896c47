package io.millrace.broker.log;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.common.record.RecordBatch;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.Record;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Loads the checked-in golden partition (see {@code golden/README.md}) the way a broker would
 * after a clean and after an unclean shutdown, and reads it with Apache Kafka's own
 * {@code FileRecords} to prove the segments are Kafka's format.
 */
public class GoldenSegmentLoadingTest {

    private static final List<Long> SEGMENTS = List.of(0L, 7L, 13L, 21L);

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private final List<LogContext> contexts = new ArrayList<>();
    private Path golden;
    private Path dir;
    private Log log;

    @Before
    public void copyGoldenFiles() throws IOException, URISyntaxException {
        golden = Path.of(getClass().getResource("/golden/" + GoldenSegmentWriter.PARTITION).toURI());
        dir = temp.getRoot().toPath().resolve(GoldenSegmentWriter.PARTITION);
        Files.createDirectories(dir);
        for (Path file : list(golden)) {
            Files.copy(file, dir.resolve(file.getFileName()));
        }
    }

    @After
    public void tearDown() {
        if (log != null) {
            log.close();
        }
        contexts.forEach(context -> context.flusher().close());
    }

    private Log load(boolean clean) {
        LogContext context = LogContext.standalone(time);
        contexts.add(context);
        log = Log.open(dir, new LogConfig(GoldenSegmentWriter.CONFIG), context, 0, clean);
        return log;
    }

    @Test
    public void aCleanLoadServesEveryBatchAsWritten() throws IOException {
        load(true);
        assertGoldenContent();
    }

    @Test
    public void anUncleanLoadFindsNothingToTruncate() throws IOException {
        load(false);
        assertGoldenContent();
    }

    @Test
    public void loadingAndClosingLeavesTheFilesByteForByteAsCheckedIn() throws IOException {
        load(true);
        log.close();
        assertFilesEqualGolden();
        load(false);
        log.close();
        log = null;
        assertFilesEqualGolden();
    }

    @Test
    public void rebuiltIndexesEqualTheCheckedInOnes() throws IOException {
        for (Path file : list(dir)) {
            if (!file.toString().endsWith(LogFileNames.LOG_SUFFIX)) {
                Files.delete(file);
            }
        }
        load(true);
        log.close();
        log = null;
        assertFilesEqualGolden();
    }

    @Test
    public void theWriterStillProducesTheCheckedInFiles() throws IOException {
        Path fresh = temp.getRoot().toPath().resolve("fresh").resolve(GoldenSegmentWriter.PARTITION);
        GoldenSegmentWriter.write(fresh);
        for (Path file : list(golden)) {
            assertArrayEquals(file.getFileName().toString(), Files.readAllBytes(file),
                Files.readAllBytes(fresh.resolve(file.getFileName())));
        }
    }

    @Test
    public void kafkasFileRecordsReadsEveryRecord() throws IOException {
        int batch = 0;
        for (long base : SEGMENTS) {
            try (FileRecords records = FileRecords.open(LogFileNames.logFile(dir, base).toFile())) {
                for (org.apache.kafka.common.record.internal.RecordBatch kafkaBatch : records.batches()) {
                    assertTrue(kafkaBatch.isValid());
                    assertEquals(2, kafkaBatch.magic());
                    assertEquals(GoldenSegmentWriter.baseOffset(batch), kafkaBatch.baseOffset());
                    assertRecords(batch, kafkaBatch);
                    batch++;
                }
            }
        }
        assertEquals(GoldenSegmentWriter.BATCHES, batch);
    }

    @Test
    public void indexEntriesPointAtTheBatchesTheyName() throws IOException {
        for (long base : SEGMENTS) {
            ByteBuffer index = ByteBuffer.wrap(Files.readAllBytes(LogFileNames.offsetIndexFile(dir, base)));
            ByteBuffer segment = ByteBuffer.wrap(Files.readAllBytes(LogFileNames.logFile(dir, base)));
            while (index.hasRemaining()) {
                long offset = base + index.getInt();
                int position = index.getInt();
                assertEquals("index entry for offset " + offset, offset, RecordBatch.wrap(segment, position).baseOffset());
            }
            ByteBuffer timeIndex = ByteBuffer.wrap(Files.readAllBytes(LogFileNames.timeIndexFile(dir, base)));
            long previous = -1;
            while (timeIndex.hasRemaining()) {
                long timestamp = timeIndex.getLong();
                long offset = base + timeIndex.getInt();
                assertTrue(timestamp > previous);
                assertEquals(timestamp, maxTimestampOfBatchAt(offset));
                previous = timestamp;
            }
        }
    }

    private void assertGoldenContent() throws IOException {
        assertEquals(SEGMENTS, log.segmentBaseOffsets());
        assertEquals(24, log.logEndOffset());
        List<RecordBatch> batches = LogTestUtils.readAll(log);
        assertEquals(GoldenSegmentWriter.BATCHES, batches.size());
        for (int i = 0; i < batches.size(); i++) {
            assertEquals("batch " + i, GoldenSegmentWriter.storedBatch(i), batches.get(i).slice());
        }
        for (int i = 0; i < GoldenSegmentWriter.BATCHES; i++) {
            long timestamp = GoldenSegmentWriter.timestamp(i, 0);
            assertEquals(GoldenSegmentWriter.baseOffset(i), log.offsetForTimestamp(timestamp).orElseThrow().offset());
        }
        assertEquals(24, log.append(LogTestUtils.batch(time.milliseconds(), "appended after loading")).firstOffset());
    }

    private static void assertRecords(int batch, org.apache.kafka.common.record.internal.RecordBatch kafkaBatch) {
        int r = 0;
        for (Record record : kafkaBatch) {
            assertEquals(GoldenSegmentWriter.baseOffset(batch) + r, record.offset());
            assertEquals(GoldenSegmentWriter.timestamp(batch, r), record.timestamp());
            assertEquals(GoldenSegmentWriter.key(batch, r), text(record.key()));
            assertEquals(GoldenSegmentWriter.value(batch, r), text(record.value()));
            Header[] headers = record.headers();
            assertEquals(batch == 5 ? 1 : 0, headers.length);
            r++;
        }
        assertEquals(GoldenSegmentWriter.recordCount(batch), r);
    }

    private long maxTimestampOfBatchAt(long offset) {
        int batch = 0;
        while (GoldenSegmentWriter.baseOffset(batch) != offset) {
            batch++;
        }
        return GoldenSegmentWriter.timestamp(batch, GoldenSegmentWriter.recordCount(batch) - 1);
    }

    /**
     * The segments and indexes are byte for byte the checked-in ones. A clean close also leaves the
     * producers' snapshot at the log end (none of the golden batches has a producer id), and loading
     * writes the leader epoch checkpoint (none of them has a leader epoch either), both of which the
     * checked-in set predates: they are checked here on their own.
     */
    private void assertFilesEqualGolden() throws IOException {
        List<Path> snapshots = list(dir).stream()
            .filter(file -> file.toString().endsWith(LogFileNames.PRODUCER_SNAPSHOT_SUFFIX)).toList();
        assertEquals(List.of(LogFileNames.producerSnapshotFile(dir, GoldenSegmentWriter.baseOffset(GoldenSegmentWriter.BATCHES))),
            snapshots);
        assertEquals(List.of(), ProducerSnapshotFile.read(snapshots.get(0)).orElseThrow().producers());
        Path epochs = dir.resolve(LogFileNames.LEADER_EPOCH_CHECKPOINT);
        assertEquals("0\n0\n", Files.readString(epochs));
        assertEquals(list(golden).stream().map(Path::getFileName).toList(),
            list(dir).stream().filter(file -> !snapshots.contains(file) && !file.equals(epochs)).map(Path::getFileName).toList());
        for (Path file : list(golden)) {
            assertArrayEquals(file.getFileName().toString(), Files.readAllBytes(file),
                Files.readAllBytes(dir.resolve(file.getFileName())));
        }
    }

    private static String text(ByteBuffer bytes) {
        return bytes == null ? null : StandardCharsets.UTF_8.decode(bytes).toString();
    }

    private static List<Path> list(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.sorted().toList();
        }
    }
}
