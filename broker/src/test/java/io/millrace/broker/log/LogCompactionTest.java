package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.config;
import static io.millrace.broker.log.LogTestUtils.readAll;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.record.RecordIterator;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Log compaction: each key's last record kept at its offset, tombstones removed after
 * delete.retention.ms, codecs and idempotent producers' state kept, the cleaned log read,
 * reloaded, recovered, truncated and copied by a follower across its gaps.
 */
public class LogCompactionTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private final List<Log> opened = new ArrayList<>();
    private Path dir;

    @Before
    public void setUp() throws IOException {
        dir = temp.newFolder("table-0").toPath();
    }

    @After
    public void tearDown() {
        opened.forEach(Log::close);
    }

    private Log open(Path where, Object... settings) {
        Object[] all = new Object[settings.length + 4];
        all[0] = LogConfig.LOG_CLEANUP_POLICY_CONFIG;
        all[1] = "compact";
        all[2] = LogConfig.LOG_SEGMENT_BYTES_CONFIG;
        all[3] = 1024;
        System.arraycopy(settings, 0, all, 4, settings.length);
        Log log = Log.open(where, config(all), time);
        opened.add(log);
        return log;
    }

    /** A batch of keyed records: key, value, key, value, ...; a null value is a tombstone. */
    private ByteBuffer keyed(CompressionType compression, String... keysAndValues) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(compression, 0, 256);
        for (int i = 0; i < keysAndValues.length; i += 2) {
            builder.append(time.milliseconds(), bytes(keysAndValues[i]), bytes(keysAndValues[i + 1]));
        }
        return builder.build();
    }

    private ByteBuffer keyed(String... keysAndValues) {
        return keyed(CompressionType.NONE, keysAndValues);
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private LogCompaction.Outcome clean(Log log) throws IOException {
        LogCompaction compaction = new LogCompaction(log, 1 << 20);
        return compaction.clean(compaction.cleanableSegments(time.milliseconds()), time.milliseconds());
    }

    /** Every record of the log as offset to "key=value" ("key=null" for a tombstone), in log order. */
    private static Map<Long, String> records(Log log) throws IOException {
        Map<Long, String> records = new LinkedHashMap<>();
        for (RecordBatch batch : readAll(log)) {
            try (RecordIterator it = batch.records()) {
                while (it.hasNext()) {
                    Record record = it.next();
                    assertTrue("offsets stay within their batch", record.offset() <= batch.lastOffset());
                    records.put(record.offset(), text(record.key()) + "=" + (record.hasValue() ? text(record.value()) : "null"));
                }
            }
        }
        return records;
    }

    private static String text(ByteBuffer bytes) {
        return bytes == null ? "" : StandardCharsets.UTF_8.decode(bytes.duplicate()).toString();
    }

    /** Appends {@code rounds} rounds of one single-record batch per key, values "key-round", and closes the last segment. */
    private Map<String, Long> writeRounds(Log log, int keys, int rounds) {
        Map<String, Long> last = new LinkedHashMap<>();
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < keys; k++) {
                long offset = log.append(keyed("k" + k, "k" + k + "-" + round)).firstOffset();
                last.put("k" + k, offset);
            }
        }
        log.roll();
        return last;
    }

    @Test
    public void keepsTheLastRecordOfEachKeyAtItsOffset() throws IOException {
        Log log = open(dir);
        Map<String, Long> last = writeRounds(log, 5, 20);
        long end = log.logEndOffset();
        long sizeBefore = log.size();
        assertTrue("the test needs several closed segments", log.numberOfSegments() > 3);

        LogCompaction.Outcome outcome = clean(log);

        Map<Long, String> expected = new LinkedHashMap<>();
        last.forEach((key, offset) -> expected.put(offset, key + "=" + key + "-19"));
        assertEquals(expected, records(log));
        assertEquals("the log end does not move", end, log.logEndOffset());
        assertTrue("the log shrank: " + log.size() + " of " + sizeBefore, log.size() < sizeBefore / 3);
        assertEquals(95, outcome.recordsRemoved());
        assertEquals(end, outcome.cleanedUpTo());
        // A fetch at a removed offset gets the next batch holding later offsets, never an error.
        RecordBatch first = LogTestUtils.batches(log.read(3, 10_000, true)).get(0);
        assertTrue(first.lastOffset() >= 3);
        assertEquals("a second pass finds nothing to remove", 0, clean(log).recordsRemoved());
    }

    @Test
    public void keysWithoutLaterRecordsAndTheActiveSegmentAreLeftAlone() throws IOException {
        Log log = open(dir);
        log.append(keyed("a", "1", "b", "1"));
        log.roll();
        log.append(keyed("a", "2"));
        // Only closed segments are mapped: a's record in the active one does not yet supersede its first.
        clean(log);
        assertEquals(Map.of(0L, "a=1", 1L, "b=1", 2L, "a=2"), records(log));
    }

    @Test
    public void tombstonesStayForDeleteRetentionThenGo() throws IOException {
        Log log = open(dir, LogCleanerConfig.LOG_CLEANER_DELETE_RETENTION_MS_CONFIG, 60_000L);
        log.append(keyed("a", "1", "b", "1"));
        log.append(keyed("a", null));
        log.roll();
        clean(log);
        assertEquals("the tombstone stays while consumers may still need to see it", Map.of(1L, "b=1", 2L, "a=null"),
            records(log));

        time.sleep(60_001);
        clean(log);
        assertEquals(Map.of(1L, "b=1"), records(log));
        assertEquals(3, log.logEndOffset());
        log.append(keyed("c", "1"));
        assertEquals(Map.of(1L, "b=1", 3L, "c=1"), records(log));
    }

    @Test
    public void compressedBatchesKeepTheirCodecAndHeader() throws IOException {
        Log log = open(dir);
        log.append(keyed(CompressionType.GZIP, "g", "1", "x", "1"));
        log.append(keyed(CompressionType.LZ4, "l", "1", "x", "2"));
        log.append(keyed(CompressionType.ZSTD, "z", "1", "x", "3"));
        log.roll();
        clean(log);
        List<RecordBatch> batches = readAll(log);
        assertEquals(3, batches.size());
        CompressionType[] codecs = {CompressionType.GZIP, CompressionType.LZ4, CompressionType.ZSTD};
        for (int i = 0; i < 3; i++) {
            RecordBatch batch = batches.get(i);
            batch.ensureIntact();
            assertEquals(codecs[i], batch.compressionType());
            assertEquals("the header keeps its offset range", 2 * i, batch.baseOffset());
            assertEquals(2 * i + 1, batch.lastOffset());
            assertEquals(i < 2 ? 1 : 2, batch.recordCount());
        }
        assertEquals(Map.of(0L, "g=1", 2L, "l=1", 4L, "z=1", 5L, "x=3"), records(log));
    }

    @Test
    public void anIdempotentProducersLastBatchStaysAsAnEmptyBatch() throws IOException {
        Log log = open(dir);
        log.append(producerBatch(0, "k", "v0"));
        log.append(keyed("k", "v1"));
        log.append(keyed("other", "1"));
        log.roll();
        clean(log);
        RecordBatch header = readAll(log).get(0);
        assertEquals(42L, header.producerId());
        assertEquals(0, header.recordCount());
        assertEquals(0, header.lastSequence());
        assertEquals(Map.of(1L, "k=v1", 2L, "other=1"), records(log));
        log.close();
        opened.remove(log);

        // Without snapshots the producer's state comes from the log alone, and the kept header still carries it.
        try (var files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(LogFileNames.PRODUCER_SNAPSHOT_SUFFIX)).toList()) {
                Files.delete(file);
            }
        }
        Log reopened = Log.open(dir, config(LogConfig.LOG_CLEANUP_POLICY_CONFIG, "compact"), LogContext.standalone(time), 0L,
            false);
        opened.add(reopened);
        assertThrows(RuntimeException.class, () -> reopened.append(producerBatch(5, "k", "gap")));
        assertEquals(3, reopened.append(producerBatch(1, "k", "v2")).firstOffset());
    }

    private ByteBuffer producerBatch(int sequence, String key, String value) {
        return RecordBatchBuilder.create(CompressionType.NONE, 0, 128).producerState(42L, (short) 0, sequence, false)
            .append(time.milliseconds(), bytes(key), bytes(value)).build();
    }

    @Test
    public void aCleanedLogLoadsAfterACleanShutdownAndAfterACrash() throws IOException {
        Log log = open(dir);
        writeRounds(log, 3, 10);
        clean(log);
        Map<Long, String> cleaned = records(log);
        long end = log.logEndOffset();
        log.close();
        opened.remove(log);

        Log afterShutdown = open(dir);
        assertEquals(cleaned, records(afterShutdown));
        afterShutdown.close();
        opened.remove(afterShutdown);

        // A crash in the middle of a later pass leaves a .cleaned copy behind; recovery checks every batch.
        long first = afterShutdown.segmentBaseOffsets().get(0);
        Files.write(LogFileNames.cleanedFile(LogFileNames.logFile(dir, first)), new byte[100]);
        Log recovered = Log.open(dir, config(LogConfig.LOG_CLEANUP_POLICY_CONFIG, "compact"), LogContext.standalone(time), 0L,
            false);
        opened.add(recovered);
        assertEquals(cleaned, records(recovered));
        assertEquals(end, recovered.logEndOffset());
        assertFalse(Files.exists(LogFileNames.cleanedFile(LogFileNames.logFile(dir, first))));
    }

    @Test
    public void aFollowerCopiesTheGapsAndAStillLeaderEnd() throws IOException {
        Log leader = open(dir);
        writeRounds(leader, 4, 8);
        leader.append(keyed("k0", "tail"));
        clean(leader);
        Log follower = open(temp.newFolder("copy", "table-0").toPath());
        while (follower.logEndOffset() < leader.logEndOffset()) {
            follower.appendAsFollower(leader.read(follower.logEndOffset(), Integer.MAX_VALUE, true).readFully());
        }
        assertEquals(records(leader), records(follower));
        assertEquals(leader.logEndOffset(), follower.logEndOffset());
    }

    @Test
    public void aTruncationIntoAGapEndsTheLogAtTheGivenOffset() throws IOException {
        Log log = open(dir);
        writeRounds(log, 2, 6);
        clean(log);
        assertEquals(Map.of(10L, "k0=k0-5", 11L, "k1=k1-5"), records(log));
        log.truncateTo(4);
        assertEquals(4, log.logEndOffset());
        assertEquals(4, log.append(keyed("k0", "again")).firstOffset());
    }

    @Test
    public void aCompactedTopicRefusesRecordsWithoutAKey() {
        Log log = open(dir);
        ByteBuffer keyless = RecordBatchBuilder.create(CompressionType.LZ4, 0, 64).append(time.milliseconds(), bytes("k"),
            bytes("1")).append(time.milliseconds(), (byte[]) null, bytes("2")).build();
        InvalidRecordException e = assertThrows(InvalidRecordException.class, () -> log.append(keyless));
        assertTrue(e.getMessage(), e.getMessage().contains("without a key"));
        assertEquals("nothing of the batch was written", 0, log.logEndOffset());
    }

    @Test
    public void retentionDeletesOnlyWhenThePolicyHoldsDelete() throws IOException {
        Log compacted = open(dir, LogConfig.LOG_RETENTION_MS_CONFIG, 1000L);
        Log both = open(temp.newFolder("both-0").toPath(), LogConfig.LOG_RETENTION_MS_CONFIG, 1000L,
            LogConfig.LOG_CLEANUP_POLICY_CONFIG, "compact,delete");
        for (Log log : List.of(compacted, both)) {
            writeRounds(log, 2, 3);
        }
        time.sleep(5_000);
        assertEquals(0, compacted.deleteOldSegments());
        assertTrue(both.deleteOldSegments() > 0);
        assertEquals(new CleanupPolicy(true, true), both.config().cleanupPolicy());
        assertEquals("compact,delete", both.config().effectiveValue(LogConfig.CLEANUP_POLICY_CONFIG));
    }

    @Test
    public void theBrokersCleanerCompactsDueLogsOnceAcrossARestart() throws IOException {
        Path logs = temp.newFolder("logs").toPath();
        LogConfig config = config(LogCleanerConfig.LOG_CLEANER_ENABLE_CONFIG, false, LogConfig.LOG_SEGMENT_BYTES_CONFIG, 1024);
        LogManager manager = new LogManager(config, List.of(logs), time);
        manager.startup();
        try {
            manager.setTopicConfig("table", Map.of(LogConfig.CLEANUP_POLICY_CONFIG, "compact"));
            Log table = manager.getOrCreateLog("table", 0);
            Log plain = manager.getOrCreateLog("plain", 0);
            writeRounds(table, 3, 10);
            writeRounds(plain, 3, 10);
            long plainSize = plain.size();
            assertEquals(1, manager.cleanCompactedLogs());
            assertEquals(3, records(table).size());
            assertEquals(27, manager.cleaner().recordsRemoved());
            assertEquals(1, manager.cleaner().logsCleaned());
            assertTrue(manager.cleaner().bytesRemoved() > 0);
            assertEquals("a delete-only topic is not compacted", plainSize, plain.size());
            assertEquals("nothing new is dirty", 0, manager.cleanCompactedLogs());
        } finally {
            manager.shutdown();
        }
        assertTrue(Files.exists(logs.resolve(LogFileNames.CLEANER_OFFSET_CHECKPOINT)));

        LogManager restarted = new LogManager(config, List.of(logs), time);
        restarted.setTopicConfig("table", Map.of(LogConfig.CLEANUP_POLICY_CONFIG, "compact"));
        restarted.startup();
        try {
            assertEquals("the checkpoint says the log is clean", 0, restarted.cleanCompactedLogs());
            writeRounds(restarted.getLog("table", 0).orElseThrow(), 3, 10);
            assertEquals(1, restarted.cleanCompactedLogs());
        } finally {
            restarted.shutdown();
        }
    }

    @Test
    public void smallCleanedSegmentsMergeIntoOne() throws IOException {
        Log log = open(dir);
        writeRounds(log, 5, 20);
        clean(log);
        int afterFirstPass = log.numberOfSegments();
        assertTrue("a segment's size before cleaning keeps it apart the first time", afterFirstPass > 3);
        Map<String, Long> last = writeRounds(log, 5, 1);
        LogCompaction.Outcome outcome = clean(log);
        // Runs of segments up to segment.bytes (1024) merge: the eight nearly empty ones and the next, then the last.
        assertEquals(3, log.numberOfSegments());
        assertTrue(log.segmentMap().firstEntry().getValue().size() <= 1024);
        assertEquals("every closed segment of the first pass was in the merged run", afterFirstPass - 1,
            outcome.segmentsRewritten());
        Map<Long, String> expected = new LinkedHashMap<>();
        last.forEach((key, offset) -> expected.put(offset, key + "=" + key + "-0"));
        assertEquals(expected, records(log));
        log.close();
        opened.remove(log);
        assertEquals(expected, records(open(dir)));
    }

    @Test
    public void segmentsAMergeLeftBehindAtACrashAreDroppedAtLoad() throws IOException {
        Log log = open(dir);
        writeRounds(log, 5, 20);
        clean(log);
        writeRounds(log, 5, 1);
        // What the merge will retire, copied aside to put back as if the crash came before their renames.
        Path aside = temp.newFolder("aside").toPath();
        List<Long> bases = log.segmentBaseOffsets();
        for (long base : bases.subList(1, bases.size() - 1)) {
            for (Path file : List.of(LogFileNames.logFile(dir, base), LogFileNames.offsetIndexFile(dir, base),
                LogFileNames.timeIndexFile(dir, base))) {
                Files.copy(file, aside.resolve(file.getFileName()));
            }
        }
        clean(log);
        Map<Long, String> cleaned = records(log);
        long end = log.logEndOffset();
        log.close();
        opened.remove(log);
        try (var files = Files.list(aside)) {
            for (Path file : files.toList()) {
                if (!Files.exists(dir.resolve(file.getFileName()))) {
                    Files.copy(file, dir.resolve(file.getFileName()));
                }
            }
        }

        Log reloaded = Log.open(dir, config(LogConfig.LOG_CLEANUP_POLICY_CONFIG, "compact"), LogContext.standalone(time), 0L,
            false);
        opened.add(reloaded);
        assertEquals(cleaned, records(reloaded));
        assertEquals(end, reloaded.logEndOffset());
        assertEquals("the merged segment, the one after it and the active one", 3, reloaded.numberOfSegments());
        assertFalse(Files.exists(LogFileNames.logFile(dir, bases.get(1))));
    }

    @Test
    public void theKeyMapRefusesNewKeysWhenFull() {
        KeyOffsetMap map = new KeyOffsetMap(1_000_000, 16 * KeyOffsetMap.BYTES_PER_ENTRY);
        int stored = 0;
        while (map.put(ByteBuffer.wrap(bytes("key" + stored)), stored)) {
            stored++;
        }
        assertEquals(14, stored);
        assertTrue("a known key still takes a new offset", map.put(ByteBuffer.wrap(bytes("key3")), 99));
        assertEquals(99, map.get(ByteBuffer.wrap(bytes("key3"))));
        assertEquals(-1, map.get(ByteBuffer.wrap(bytes("other"))));
    }
}
