package io.millrace.broker.log;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.ProducerStateEntry.BatchMetadata;
import io.millrace.common.errors.InvalidProducerEpochException;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.errors.OutOfOrderSequenceException;
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
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The idempotent producer's rules on a partition log: duplicates answered with their original
 * offsets and not appended, gaps and fenced epochs refused, sequence numbers wrapping, and the
 * state kept across a close and reload (from a snapshot, or rebuilt from the log without one).
 */
public class ProducerStateTest {

    private static final long PID = 4_000L;

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private Path dir;
    private Log log;

    @Before
    public void setUp() throws IOException {
        dir = temp.newFolder("idempotent-0").toPath();
        log = open(LogConfig.defaults());
    }

    @After
    public void tearDown() {
        log.close();
    }

    private Log open(LogConfig config) {
        return Log.open(dir, config, time);
    }

    /** A batch of {@code records} records from {@code pid} at {@code epoch}, starting at sequence {@code seq}. */
    static ByteBuffer batch(long pid, int epoch, int seq, int records) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0, 256)
            .producerState(pid, (short) epoch, seq, false);
        for (int i = 0; i < records; i++) {
            builder.append(1_700_000_000_000L, null, ("seq " + (seq + i)).getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    private LogAppendInfo append(ByteBuffer records) {
        return log.append(records.duplicate());
    }

    @Test
    public void aRetriedBatchIsAnsweredWithItsOriginalOffsetsAndNotAppended() {
        append(batch(PID, 0, 0, 3));
        ByteBuffer second = batch(PID, 0, 3, 2);
        LogAppendInfo first = append(second);
        LogAppendInfo retry = append(second);
        assertEquals(3, first.firstOffset());
        assertEquals(3, retry.firstOffset());
        assertEquals(4, retry.lastOffset());
        assertEquals(0, retry.recordCount());
        assertEquals("nothing was appended twice", 5, log.logEndOffset());
    }

    @Test
    public void anyOfTheLastFiveBatchesIsADuplicateButNotTheSixthBack() {
        for (int i = 0; i < 6; i++) {
            append(batch(PID, 0, i * 2, 2));
        }
        for (int i = 1; i < 6; i++) {
            assertEquals(i * 2L, append(batch(PID, 0, i * 2, 2)).firstOffset());
        }
        assertEquals(12, log.logEndOffset());
        assertThrows("the oldest batch is forgotten", OutOfOrderSequenceException.class, () -> append(batch(PID, 0, 0, 2)));
    }

    @Test
    public void aSequenceGapIsRefusedAndNothingIsAppended() {
        append(batch(PID, 0, 0, 2));
        assertThrows(OutOfOrderSequenceException.class, () -> append(batch(PID, 0, 3, 1)));
        assertEquals(2, log.logEndOffset());
        assertEquals(2, append(batch(PID, 0, 2, 1)).firstOffset());
    }

    @Test
    public void anOlderEpochIsFencedAndANewEpochMustStartAtZero() {
        append(batch(PID, 1, 0, 1));
        assertThrows(InvalidProducerEpochException.class, () -> append(batch(PID, 0, 1, 1)));
        assertThrows(OutOfOrderSequenceException.class, () -> append(batch(PID, 2, 5, 1)));
        append(batch(PID, 2, 0, 1));
        assertEquals(2, log.producerState().entry(PID).orElseThrow().epoch());
        assertEquals(2, log.logEndOffset());
    }

    @Test
    public void whileTheLogHoldsEverythingAnUnknownProducerMustStartAtSequenceZero() {
        OutOfOrderSequenceException refused = assertThrows(OutOfOrderSequenceException.class,
            () -> append(batch(PID, 3, 1_000, 5)));
        assertTrue(refused.getMessage(), refused.getMessage().contains("sequence 0 is due first"));
        assertEquals("nothing was appended", 0, log.logEndOffset());
        assertFalse(log.producerState().entry(PID).isPresent());
        assertEquals(0, append(batch(PID, 3, 0, 5)).firstOffset());
        assertEquals(5, append(batch(PID, 3, 5, 1)).firstOffset());
    }

    @Test
    public void aFirstBatchRefusedWithTheNextInFlightIsAppendedFirstWhenSentAgain() {
        ByteBuffer first = batch(PID, 0, 0, 3);
        ByteBuffer next = batch(PID, 0, 3, 2);
        // the first was refused before it reached the log (the leadership not yet taken); the next arrives
        assertThrows(OutOfOrderSequenceException.class, () -> append(next));
        assertEquals(0, append(first).firstOffset());
        assertEquals(3, append(next).firstOffset());
        assertEquals(4, log.producerState().entry(PID).orElseThrow().lastSeq());
    }

    @Test
    public void onceTheLogHasDeletedRecordsAnUnknownProducerMayStartAtAnySequence() {
        append(batch(PID + 9, 0, 0, 3));
        log.deleteRecordsBefore(1);
        assertEquals(3, append(batch(PID, 3, 1_000, 5)).firstOffset());
        assertEquals(1_004, log.producerState().entry(PID).orElseThrow().lastSeq());
        append(batch(PID + 1, 0, 77, 1));
        assertEquals(3, log.producerState().producerCount());
    }

    @Test
    public void sequencesWrapAtIntegerMaxValue() {
        append(batch(PID + 9, 0, 0, 1));
        log.deleteRecordsBefore(1);
        int start = Integer.MAX_VALUE - 1;
        append(batch(PID, 0, start, 4));
        assertEquals("the last sequence wraps", 1, log.producerState().entry(PID).orElseThrow().lastSeq());
        assertEquals(5, append(batch(PID, 0, 2, 1)).firstOffset());
        assertEquals("a wrapped batch is still recognised as a duplicate", 1, append(batch(PID, 0, start, 4)).firstOffset());
        append(batch(PID + 1, 0, Integer.MAX_VALUE, 1));
        assertEquals(7, append(batch(PID + 1, 0, 0, 1)).firstOffset());
    }

    @Test
    public void inAMultiBatchAppendTheFirstDuplicateAnswersForTheWholeAppend() {
        append(batch(PID, 0, 0, 2));
        LogAppendInfo info = append(LogTestUtils.concat(batch(PID, 0, 0, 2), batch(PID, 0, 2, 2)));
        assertEquals(0, info.firstOffset());
        assertEquals(1, info.lastOffset());
        assertEquals("the new batch behind the duplicate is not appended either", 2, log.logEndOffset());
    }

    @Test
    public void batchesOfOneProducerInOneAppendMustFollowEachOther() {
        assertEquals(0, append(LogTestUtils.concat(batch(PID, 0, 0, 2), batch(PID, 0, 2, 2))).firstOffset());
        assertThrows(OutOfOrderSequenceException.class,
            () -> append(LogTestUtils.concat(batch(PID, 0, 4, 1), batch(PID, 0, 9, 1))));
        assertEquals("a refused append leaves no state behind", 3, log.producerState().entry(PID).orElseThrow().lastSeq());
        assertEquals(4, log.logEndOffset());
    }

    @Test
    public void aProducerIdWithoutASequenceIsAnInvalidRecord() {
        assertThrows(InvalidRecordException.class, () -> append(batch(PID, 0, RecordBatch.NO_SEQUENCE, 1)));
    }

    @Test
    public void batchesWithoutAProducerIdAreNeverChecked() {
        ByteBuffer plain = LogTestUtils.batch(time.milliseconds(), "a", "b");
        append(plain);
        append(plain);
        assertEquals(4, log.logEndOffset());
        assertEquals(0, log.producerState().producerCount());
    }

    @Test
    public void theStateSurvivesACleanCloseThroughTheSnapshotAtTheLogEnd() throws IOException {
        ByteBuffer last = batch(PID, 0, 5, 5);
        append(batch(PID, 0, 0, 5));
        append(last);
        log.close();
        assertTrue(Files.exists(LogFileNames.producerSnapshotFile(dir, 10)));
        log = open(LogConfig.defaults());
        assertEquals(5, append(last).firstOffset());
        assertEquals(10, log.logEndOffset());
        assertThrows(OutOfOrderSequenceException.class, () -> append(batch(PID, 0, 11, 1)));
    }

    @Test
    public void withoutASnapshotTheStateIsRebuiltFromTheLog() throws IOException {
        ByteBuffer second = batch(PID, 0, 5, 5);
        append(batch(PID, 0, 0, 5));
        append(second);
        append(LogTestUtils.batch(time.milliseconds(), "no producer"));
        log.close();
        Files.delete(LogFileNames.producerSnapshotFile(dir, 11));
        log = open(LogConfig.defaults());
        assertEquals(5, append(second).firstOffset());
        assertEquals(11, log.logEndOffset());
        ProducerStateEntry entry = log.producerState().entry(PID).orElseThrow();
        assertEquals(List.of(new BatchMetadata(0, 4, 0, 4, 1_700_000_000_000L), new BatchMetadata(5, 9, 5, 9,
            1_700_000_000_000L)), entry.batches());
    }

    @Test
    public void aDamagedSnapshotIsDeletedAndTheStateRebuilt() throws IOException {
        append(batch(PID, 0, 0, 3));
        log.close();
        Path snapshot = LogFileNames.producerSnapshotFile(dir, 3);
        byte[] bytes = Files.readAllBytes(snapshot);
        bytes[bytes.length - 1] ^= 0x5a;
        Files.write(snapshot, bytes);
        log = open(LogConfig.defaults());
        assertEquals(2, log.producerState().entry(PID).orElseThrow().lastSeq());
        assertFalse(Files.exists(snapshot));
    }

    @Test
    public void aRollSnapshotsTheStateAndReloadReplaysOnlyWhatFollows() throws IOException {
        append(batch(PID, 0, 0, 2));
        log.roll();
        assertEquals(List.of(2L), log.producerState().snapshotOffsets());
        append(batch(PID, 0, 2, 2));
        log.close(false);
        log = open(LogConfig.defaults());
        assertEquals("an unclean close wrote no snapshot at the end", List.of(2L), log.producerState().snapshotOffsets());
        assertEquals(2, log.producerState().entry(PID).orElseThrow().batches().size());
        assertEquals(2, append(batch(PID, 0, 2, 2)).firstOffset());
    }

    @Test
    public void snapshotsAboveTheLogEndAreDeletedOnLoad() throws IOException {
        append(batch(PID, 0, 0, 2));
        log.close();
        ProducerSnapshotFile.write(dir, 50, List.of(new ProducerStateEntry(PID, (short) 9, List.of(), 0)), List.of());
        log = open(LogConfig.defaults());
        assertEquals(List.of(2L), log.producerState().snapshotOffsets());
        assertEquals(0, log.producerState().entry(PID).orElseThrow().epoch());
    }

    @Test
    public void idleProducersExpireOnARetentionPass() {
        log.close();
        log = open(LogTestUtils.config(LogConfig.PRODUCER_ID_EXPIRATION_MS_CONFIG, 60_000L));
        append(batch(PID, 0, 0, 1));
        time.advance(30_000);
        append(batch(PID + 1, 0, 0, 1));
        time.advance(30_000);
        log.deleteOldSegments();
        assertFalse(log.producerState().entry(PID).isPresent());
        assertTrue(log.producerState().entry(PID + 1).isPresent());
        assertThrows("an expired producer is unknown again: at sequence 0 while the log holds everything",
            OutOfOrderSequenceException.class, () -> append(batch(PID, 0, 42, 1)));
        assertEquals("a new epoch starts it again", 2, append(batch(PID, 1, 0, 1)).firstOffset());
    }

    @Test
    public void replicatedBatchesUpdateTheStateWithoutChecks() {
        ByteBuffer copy = batch(PID, 0, 10, 2);
        RecordBatch.wrap(copy, 0).setBaseOffset(100);
        log.producerState().onReplicatedRecords(copy, time.milliseconds());
        ProducerStateEntry entry = log.producerState().entry(PID).orElseThrow();
        assertEquals(List.of(new BatchMetadata(10, 11, 100, 101, 1_700_000_000_000L)), entry.batches());
    }

    @Test
    public void aTruncationForgetsTheBatchesFromTheNewEndOnAndTheSnapshotsAboveIt() throws IOException {
        append(batch(PID, 0, 0, 2));
        log.roll();
        append(batch(PID, 0, 2, 2));
        append(batch(PID, 0, 4, 2));
        ProducerStateManager state = log.producerState();
        long now = time.milliseconds();
        state.reload(4, log.segmentMap(), now);
        assertEquals(3, state.entry(PID).orElseThrow().lastSeq());
        assertEquals(List.of(2L), state.snapshotOffsets());
        state.reload(2, log.segmentMap(), now);
        assertEquals(1, state.entry(PID).orElseThrow().lastSeq());
        assertEquals("the snapshot at the new end still holds", List.of(2L), state.snapshotOffsets());
        state.reload(0, log.segmentMap(), now);
        assertFalse(state.entry(PID).isPresent());
        assertEquals(List.of(), state.snapshotOffsets());
        append(batch(PID, 1, 0, 2));
        state.truncateFully();
        assertEquals(0, state.producerCount());
    }

    @Test
    public void aFollowersCopyCarriesTheStateSoARetryToItAsLeaderIsStillADuplicate() throws IOException {
        ByteBuffer first = batch(PID, 0, 0, 3);
        ByteBuffer second = batch(PID, 0, 3, 2);
        try (Log leader = Log.open(temp.newFolder("leader-0").toPath(), LogConfig.defaults(), time)) {
            leader.append(first.duplicate());
            leader.append(second.duplicate());
            log.appendAsFollower(leader.read(0, 1 << 20, true).readFully());
        }
        assertEquals(4, log.producerState().entry(PID).orElseThrow().lastSeq());
        assertEquals("a retry of a batch the old leader appended", 3, append(second).firstOffset());
        assertEquals(5, log.logEndOffset());
        log.truncateTo(3);
        assertEquals("the truncated batch is forgotten", 2, log.producerState().entry(PID).orElseThrow().lastSeq());
        assertEquals("and may be appended again", 3, append(second).firstOffset());
        log.truncateFullyAndStartAt(10);
        assertEquals(0, log.producerState().producerCount());
    }

    @Test
    public void deletedSegmentsTakeTheirSnapshotsButNotTheProducers() throws IOException {
        append(batch(PID, 0, 0, 2));
        log.roll();
        append(batch(PID, 0, 2, 2));
        log.roll();
        append(batch(PID, 0, 4, 2));
        assertEquals(List.of(2L, 4L), log.producerState().snapshotOffsets());
        log.deleteRecordsBefore(4);
        assertEquals(List.of(4L), log.producerState().snapshotOffsets());
        assertEquals(5, log.producerState().entry(PID).orElseThrow().lastSeq());
    }

    @Test
    public void theSnapshotFormatRoundTripsAndRejectsTornFiles() {
        List<ProducerStateEntry> entries = List.of(
            new ProducerStateEntry(1, (short) 2, List.of(new BatchMetadata(0, 4, 10, 14, 99)), 1234),
            new ProducerStateEntry(7, (short) 0, List.of(), 5),
            new ProducerStateEntry(8, (short) 3, List.of(new BatchMetadata(5, 5, 20, 20, 7)), 6, 4, 20));
        List<AbortedTransactions.Aborted> aborted = List.of(new AbortedTransactions.Aborted(9, 11, 13));
        ByteBuffer bytes = ProducerSnapshotFile.serialize(33, entries, aborted);
        ProducerSnapshotFile.Contents read = ProducerSnapshotFile.parse(bytes.duplicate()).orElseThrow();
        assertEquals(entries, read.producers());
        assertEquals(aborted, read.aborted());
        assertEquals(22, ProducerSnapshotFile.serialize(0, List.of(), List.of()).remaining());
        ByteBuffer torn = ByteBuffer.wrap(java.util.Arrays.copyOf(bytes.array(), bytes.remaining() - 3));
        assertFalse(ProducerSnapshotFile.parse(torn).isPresent());
    }

    @Test
    public void inSequenceWrapsAtIntegerMaxValue() {
        assertTrue(ProducerSequenceCheck.inSequence(Integer.MAX_VALUE, 0));
        assertTrue(ProducerSequenceCheck.inSequence(-1, 0));
        assertTrue(ProducerSequenceCheck.inSequence(41, 42));
        assertFalse(ProducerSequenceCheck.inSequence(41, 43));
        assertFalse(ProducerSequenceCheck.inSequence(Integer.MAX_VALUE, Integer.MIN_VALUE));
    }
}
