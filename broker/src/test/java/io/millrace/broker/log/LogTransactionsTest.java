package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.config;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.AbortedTransactions.Aborted;
import io.millrace.common.errors.InvalidProducerEpochException;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.EndTransactionMarker;
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
import java.util.List;
import java.util.OptionalLong;
import java.util.zip.CRC32C;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Transactions in a partition log: a transactional batch opens its producer's transaction, a
 * coordinator's marker ends it, the last stable offset stays at the oldest open one, aborted
 * transactions are remembered for read-committed fetches, and all of it survives a reload (from
 * a snapshot or the log), a truncation, a follower's copy, retention and compaction.
 */
public class LogTransactionsTest {

    private static final long A = 1_000L;
    private static final long B = 2_000L;
    private static final long IDEMPOTENT = 3_000L;
    private static final EndTransactionMarker COMMIT = new EndTransactionMarker(true, 5);
    private static final EndTransactionMarker ABORT = new EndTransactionMarker(false, 5);

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private final List<Log> opened = new ArrayList<>();
    private Path dir;
    private Log log;

    @Before
    public void setUp() throws IOException {
        dir = temp.newFolder("txn-0").toPath();
        log = open(dir);
    }

    @After
    public void tearDown() {
        opened.forEach(Log::close);
    }

    private Log open(Path where, Object... settings) {
        Log opened = Log.open(where, config(settings), time);
        this.opened.add(opened);
        return opened;
    }

    /** A batch of {@code count} records from {@code pid}, values "v{seq}" (keys likewise when {@code key} is given). */
    private ByteBuffer batch(long pid, int epoch, int seq, int count, boolean transactional, String key) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0, 256)
            .producerState(pid, (short) epoch, seq, transactional);
        for (int i = 0; i < count; i++) {
            byte[] value = ("v" + (seq + i)).getBytes(StandardCharsets.UTF_8);
            builder.append(time.milliseconds(), key == null ? null : key.getBytes(StandardCharsets.UTF_8), value);
        }
        return builder.build();
    }

    private long txn(Log target, long pid, int seq, int count) {
        return target.append(batch(pid, 0, seq, count, true, null)).firstOffset();
    }

    private long mark(Log target, long pid, EndTransactionMarker marker) {
        return target.appendMarker(pid, (short) 0, marker, -1).firstOffset();
    }

    private static OptionalLong unstable(Log target) {
        return target.producerState().firstUnstableOffset();
    }

    @Test
    public void theLastStableOffsetStaysAtTheOldestOpenTransaction() throws IOException {
        log.append(batch(IDEMPOTENT, 0, 0, 2, false, null));
        assertEquals("an idempotent producer opens nothing", OptionalLong.empty(), unstable(log));
        long firstOfA = txn(log, A, 0, 3);
        long firstOfB = txn(log, B, 0, 1);
        txn(log, A, 3, 2);
        assertEquals(OptionalLong.of(firstOfA), unstable(log));
        assertEquals(firstOfA, log.producerState().lastStableOffset(log.logEndOffset()));
        assertEquals("a lower high watermark bounds it", 1, log.producerState().lastStableOffset(1));
        assertEquals(firstOfA, log.producerState().entry(A).orElseThrow().currentTxnFirstOffset());

        long commit = mark(log, A, COMMIT);
        assertEquals(OptionalLong.of(firstOfB), unstable(log));
        mark(log, B, COMMIT);
        assertEquals(OptionalLong.empty(), unstable(log));
        assertEquals(log.logEndOffset(), log.producerState().lastStableOffset(log.logEndOffset()));
        assertEquals(List.of(), log.producerState().abortedTransactions(0, log.logEndOffset()));
        assertEquals(5, log.producerState().entry(A).orElseThrow().coordinatorEpoch());
        assertFalse(log.producerState().entry(A).orElseThrow().inTransaction());

        RecordBatch marker = LogTestUtils.batches(log.read(commit, 1000, true)).get(0);
        assertTrue(marker.isControlBatch());
        assertTrue(marker.isTransactional());
        assertEquals(A, marker.producerId());
        assertEquals(COMMIT, EndTransactionMarker.read(marker));
    }

    @Test
    public void abortedTransactionsAreFoundByTheRangeTheyCover() {
        long first = txn(log, A, 0, 2);
        txn(log, B, 0, 2);
        long abort = mark(log, A, ABORT);
        mark(log, B, COMMIT);
        long second = txn(log, A, 2, 1);
        long abortAgain = mark(log, A, ABORT);

        Aborted one = new Aborted(A, first, abort);
        Aborted two = new Aborted(A, second, abortAgain);
        assertEquals(List.of(one, two), log.producerState().abortedTransactions(0, log.logEndOffset()));
        assertEquals("a range ending before the second", List.of(one), log.producerState().abortedTransactions(0, second));
        assertEquals("a range starting after the first's marker", List.of(two),
            log.producerState().abortedTransactions(abort + 1, log.logEndOffset()));
        assertEquals("a range inside the first", List.of(one), log.producerState().abortedTransactions(first + 1, first + 2));
    }

    @Test
    public void markersFromFencedProducersAndCoordinatorsAreRefusedAndChangeNothing() {
        txn(log, A, 0, 1);
        log.append(batch(A, 2, 0, 1, true, null));
        long end = log.logEndOffset();
        assertThrows(InvalidProducerEpochException.class, () -> log.appendMarker(A, (short) 1, COMMIT, -1));
        log.appendMarker(A, (short) 2, new EndTransactionMarker(true, 7), -1);
        txn(log, B, 0, 1);
        log.appendMarker(B, (short) 0, new EndTransactionMarker(true, 7), -1);
        txn(log, B, 1, 1);
        ApiException fenced = assertThrows(ApiException.class,
            () -> log.appendMarker(B, (short) 0, new EndTransactionMarker(false, 6), -1));
        assertEquals(Errors.TRANSACTION_COORDINATOR_FENCED, fenced.error());
        assertEquals("two commits and two batches, nothing refused", end + 4, log.logEndOffset());
        assertTrue("the refused abort left B's transaction open", log.producerState().entry(B).orElseThrow().inTransaction());
        assertEquals(List.of(), log.producerState().abortedTransactions(0, Long.MAX_VALUE));
    }

    @Test
    public void clientsMayNotWriteControlBatchesNorLeaveTheirOpenTransaction() {
        ByteBuffer forged = ABORT.toBatch(A, (short) 0, time.milliseconds(), -1);
        assertThrows(InvalidRecordException.class, () -> log.append(forged));
        assertEquals(0, log.logEndOffset());

        txn(log, A, 0, 1);
        ApiException outside = assertThrows(ApiException.class, () -> log.append(batch(A, 0, 1, 1, false, null)));
        assertEquals(Errors.INVALID_TXN_STATE, outside.error());
        assertEquals(1, log.logEndOffset());
    }

    @Test
    public void anAbortWithANewEpochFencesTheOldOneAndTheNewStartsAtSequenceZero() {
        txn(log, A, 0, 3);
        // What a coordinator writes when a new instance with the same transactional id fences this one.
        log.appendMarker(A, (short) 1, ABORT, -1);
        assertThrows(InvalidProducerEpochException.class, () -> log.append(batch(A, 0, 3, 1, true, null)));
        assertEquals(4, log.append(batch(A, 1, 0, 1, true, null)).firstOffset());
        assertEquals(OptionalLong.of(4), unstable(log));
    }

    @Test
    public void openAndAbortedTransactionsSurviveACleanCloseAnUncleanOneAndLosingEverySnapshot() throws IOException {
        long first = txn(log, A, 0, 2);
        long abort = mark(log, A, ABORT);
        log.roll();
        long open = txn(log, B, 0, 2);
        log.append(batch(IDEMPOTENT, 0, 0, 1, false, null));
        List<Aborted> aborted = List.of(new Aborted(A, first, abort));

        log.close();
        log = open(dir);
        assertEquals(OptionalLong.of(open), unstable(log));
        assertEquals(aborted, log.producerState().abortedTransactions(0, Long.MAX_VALUE));

        log.close(false);
        log = open(dir);
        assertEquals("replayed from the snapshot of the roll", OptionalLong.of(open), unstable(log));
        assertEquals(aborted, log.producerState().abortedTransactions(0, Long.MAX_VALUE));

        log.close(false);
        for (long offset : log.producerState().snapshotOffsets()) {
            Files.delete(LogFileNames.producerSnapshotFile(dir, offset));
        }
        log = open(dir);
        assertEquals("replayed from the log's first batch", OptionalLong.of(open), unstable(log));
        assertEquals(aborted, log.producerState().abortedTransactions(0, Long.MAX_VALUE));
    }

    @Test
    public void aSnapshotWrittenBeforeTransactionsIsStillRead() throws IOException {
        ByteBuffer v1 = ByteBuffer.allocate(2 + 4 + 8 + 4 + 8 + 2 + 8 + 4);
        v1.putShort((short) 1).putInt(0).putLong(0).putInt(1).putLong(A).putShort((short) 4).putLong(99).putInt(0);
        CRC32C crc = new CRC32C();
        crc.update(v1.array(), 6, v1.capacity() - 6);
        v1.putInt(2, (int) crc.getValue());
        ProducerSnapshotFile.Contents contents = ProducerSnapshotFile.parse(v1.flip()).orElseThrow();
        assertEquals(List.of(new ProducerStateEntry(A, (short) 4, List.of(), 99)), contents.producers());
        assertEquals(List.of(), contents.aborted());
        assertFalse(contents.producers().get(0).inTransaction());
    }

    @Test
    public void truncatingAMarkerAwayReopensItsTransaction() {
        long first = txn(log, A, 0, 2);
        long abort = mark(log, A, ABORT);
        assertTrue(log.truncateTo(abort));
        assertEquals(OptionalLong.of(first), unstable(log));
        assertEquals(List.of(), log.producerState().abortedTransactions(0, Long.MAX_VALUE));
        assertTrue(log.truncateTo(first));
        assertEquals(OptionalLong.empty(), unstable(log));
    }

    @Test
    public void aFollowerCopyKnowsTheLeadersTransactions() throws IOException {
        long first = txn(log, A, 0, 2);
        long abort = mark(log, A, ABORT);
        long open = txn(log, B, 0, 1);
        Log follower = open(temp.newFolder("txn-1").toPath());
        for (RecordBatch batch : LogTestUtils.readAll(log)) {
            follower.appendAsFollower(batch.slice());
        }
        assertEquals(OptionalLong.of(open), unstable(follower));
        assertEquals(List.of(new Aborted(A, first, abort)), follower.producerState().abortedTransactions(0, Long.MAX_VALUE));
    }

    @Test
    public void retentionForgetsAbortedTransactionsBelowTheLogStart() {
        long first = txn(log, A, 0, 2);
        long abort = mark(log, A, ABORT);
        log.roll();
        txn(log, A, 2, 1);
        mark(log, A, COMMIT);
        log.roll();
        assertEquals(1, log.producerState().abortedTransactions(0, Long.MAX_VALUE).size());
        log.deleteRecordsBefore(abort);
        assertEquals("its marker is still there", List.of(new Aborted(A, first, abort)),
            log.producerState().abortedTransactions(0, Long.MAX_VALUE));
        log.deleteRecordsBefore(abort + 1);
        log.deleteOldSegments();
        assertEquals(List.of(), log.producerState().abortedTransactions(0, Long.MAX_VALUE));
    }

    @Test
    public void compactionDropsAbortedRecordsKeepsWhatTheyWouldHaveReplacedAndStopsAtAnOpenTransaction() throws IOException {
        Log table = open(temp.newFolder("table-0").toPath(), LogConfig.LOG_CLEANUP_POLICY_CONFIG, "compact",
            LogConfig.LOG_SEGMENT_BYTES_CONFIG, 1024);
        long committed = table.append(batch(A, 0, 0, 1, true, "k")).firstOffset();
        mark(table, A, COMMIT);
        table.append(batch(A, 0, 1, 1, true, "k"));
        mark(table, A, ABORT);
        table.roll();
        long open = table.append(batch(B, 0, 0, 1, true, "j")).firstOffset();
        table.append(batch(IDEMPOTENT, 0, 0, 1, false, "j"));
        table.roll();
        table.append(batch(IDEMPOTENT, 0, 1, 1, false, "other"));

        LogCompaction compaction = new LogCompaction(table, 1 << 20);
        List<LogSegment> cleanable = compaction.cleanableSegments(time.milliseconds());
        assertEquals("the segment holding B's open transaction waits", 1, cleanable.size());
        compaction.clean(cleanable, time.milliseconds());

        List<String> kept = new ArrayList<>();
        int markers = 0;
        for (RecordBatch batch : LogTestUtils.readAll(table)) {
            if (batch.isControlBatch()) {
                markers++;
                continue;
            }
            try (RecordIterator records = batch.records()) {
                while (records.hasNext()) {
                    Record record = records.next();
                    kept.add(record.offset() + ":" + StandardCharsets.UTF_8.decode(record.value()));
                }
            }
        }
        assertEquals(List.of(committed + ":v0", open + ":v0", (open + 1) + ":v0", (open + 2) + ":v1"), kept);
        assertEquals("markers stay", 2, markers);
    }
}
