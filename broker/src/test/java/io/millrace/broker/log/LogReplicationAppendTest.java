package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static io.millrace.broker.log.LogTestUtils.batchOfValueSize;
import static io.millrace.broker.log.LogTestUtils.concat;
import static io.millrace.broker.log.LogTestUtils.config;
import static io.millrace.broker.log.LogTestUtils.readAll;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.LeaderEpochCache.EpochEndOffset;
import io.millrace.broker.log.LeaderEpochCache.EpochEntry;
import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.record.RecordBatch;
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
 * Appends as a leader (batches stamped with the leader epoch, epochs recorded where they begin)
 * and as a follower (the leader's offsets and epochs kept, never before the log end, a compacted
 * leader's gaps kept), and the
 * high watermark as a log without followers keeps it.
 */
public class LogReplicationAppendTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private Path dir;
    private Log leader;
    private Log follower;

    @Before
    public void setUp() throws IOException {
        dir = temp.newFolder("events-0").toPath();
        leader = Log.open(dir, config(), time);
        follower = Log.open(temp.newFolder("copy", "events-0").toPath(), config(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 2048), time);
    }

    @After
    public void tearDown() {
        leader.close();
        follower.close();
    }

    private static ByteBuffer twoRecords() {
        return batch(1_700_000_000_000L, "a", "b");
    }

    /** The stored bytes of {@code log} from {@code from}, as a follower fetches them. */
    private static ByteBuffer fetch(Log log, long from) throws IOException {
        return log.read(from, Integer.MAX_VALUE, true).readFully();
    }

    @Test
    public void plainAppendsStampNoEpochAndRecordNone() throws IOException {
        ByteBuffer batch = twoRecords();
        RecordBatch.wrap(batch).setPartitionLeaderEpoch(42);
        leader.append(batch);
        assertEquals("a producer's epoch field is not trusted", RecordBatch.NO_PARTITION_LEADER_EPOCH,
            readAll(leader).get(0).partitionLeaderEpoch());
        assertEquals(List.of(), leader.leaderEpochCache().entries());
        assertEquals(LeaderEpochCache.UNDEFINED_EPOCH, leader.latestEpoch());
    }

    @Test
    public void leaderAppendsStampTheirEpochAndRecordWhereEachBegins() throws IOException {
        leader.appendAsLeader(twoRecords(), 0);
        leader.appendAsLeader(twoRecords(), 0);
        leader.appendAsLeader(twoRecords(), 3);
        leader.append(twoRecords());
        List<RecordBatch> stored = readAll(leader);
        assertEquals(List.of(0, 0, 3, 3), stored.stream().map(RecordBatch::partitionLeaderEpoch).toList());
        stored.forEach(RecordBatch::ensureValid);
        assertEquals(List.of(new EpochEntry(0, 0), new EpochEntry(3, 4)), leader.leaderEpochCache().entries());
        assertEquals(new EpochEndOffset(0, 4), leader.endOffsetForEpoch(0));
        assertEquals(new EpochEndOffset(3, 8), leader.endOffsetForEpoch(3));
        assertThrows("a deposed leader's epoch", IllegalArgumentException.class, () -> leader.appendAsLeader(twoRecords(), 2));
        assertEquals(8, leader.logEndOffset());
    }

    @Test
    public void aNewLeaderRecordsItsEpochBeforeItsFirstAppend() {
        leader.appendAsLeader(twoRecords(), 1);
        leader.assignEpochStartOffset(2, leader.logEndOffset());
        assertEquals(2, leader.latestEpoch());
        assertEquals(new EpochEndOffset(1, 2), leader.endOffsetForEpoch(1));
        leader.appendAsLeader(twoRecords(), 2);
        assertEquals(List.of(new EpochEntry(1, 0), new EpochEntry(2, 2)), leader.leaderEpochCache().entries());
    }

    @Test
    public void aFollowerKeepsTheLeadersOffsetsEpochsAndBytes() throws IOException {
        for (int epoch = 0; epoch < 3; epoch++) {
            for (int i = 0; i < 5; i++) {
                leader.appendAsLeader(batchOfValueSize(time.milliseconds(), 300), epoch);
            }
        }
        // Two fetches, the second larger than a follower's segment.
        ByteBuffer all = fetch(leader, 0);
        follower.appendAsFollower(all.duplicate().limit(RecordBatch.wrap(all).sizeInBytes()));
        LogAppendInfo info = follower.appendAsFollower(fetch(leader, 1));
        assertEquals(1, info.firstOffset());
        assertEquals(14, info.lastOffset());
        assertEquals(leader.logEndOffset(), follower.logEndOffset());
        assertEquals(readAll(leader).stream().map(LogTestUtils::bytesOf).toList(),
            readAll(follower).stream().map(LogTestUtils::bytesOf).toList());
        assertTrue("split over segments", follower.numberOfSegments() > 1);
        assertEquals(leader.leaderEpochCache().entries(), follower.leaderEpochCache().entries());
        assertEquals(List.of(new EpochEntry(0, 0), new EpochEntry(1, 5), new EpochEntry(2, 10)),
            follower.leaderEpochCache().entries());
    }

    @Test
    public void aFollowerAppendMayNotStartBeforeTheLogEnd() throws IOException {
        leader.appendAsLeader(twoRecords(), 0);
        leader.appendAsLeader(twoRecords(), 0);
        leader.appendAsLeader(twoRecords(), 0);
        follower.appendAsFollower(fetch(leader, 0));
        UnexpectedAppendOffsetException replay = assertThrows("a replay", UnexpectedAppendOffsetException.class,
            () -> follower.appendAsFollower(fetch(leader, 2)));
        assertEquals(6, replay.logEndOffset());
        assertEquals(2, replay.firstOffset());
        assertEquals(6, follower.logEndOffset());
        assertEquals(List.of(new EpochEntry(0, 0)), follower.leaderEpochCache().entries());
    }

    @Test
    public void aFollowerKeepsTheGapsOfACompactedLeader() throws IOException {
        ByteBuffer first = twoRecords();
        ByteBuffer later = twoRecords();
        RecordBatch.wrap(later).setBaseOffset(7);
        follower.appendAsFollower(first);
        follower.appendAsFollower(later);
        assertEquals(9, follower.logEndOffset());
        assertEquals(List.of(0L, 7L), readAll(follower).stream().map(RecordBatch::baseOffset).toList());
    }

    @Test
    public void replicatedBatchesMustNotOverlap() {
        ByteBuffer a = twoRecords();
        ByteBuffer b = twoRecords();
        RecordBatch.wrap(b).setBaseOffset(1);
        assertThrows(InvalidRecordException.class, () -> follower.appendAsFollower(concat(a, b)));
        ByteBuffer damaged = twoRecords();
        damaged.put(damaged.limit() - 1, (byte) (damaged.get(damaged.limit() - 1) + 1));
        assertThrows(CorruptRecordException.class, () -> follower.appendAsFollower(damaged));
        assertEquals("nothing appended", 0, follower.logEndOffset());
    }

    @Test
    public void withoutFollowersTheHighWatermarkIsTheLogEnd() {
        assertEquals(0, leader.highWatermark());
        leader.append(twoRecords());
        assertEquals(2, leader.highWatermark());
        leader.append(twoRecords());
        assertEquals(4, leader.highWatermark());
    }

    @Test
    public void aManagedHighWatermarkMovesOnlyWhenToldAndStaysWithinTheLog() {
        leader.setHighWatermarkFollowsLogEnd(false);
        leader.append(twoRecords());
        leader.append(twoRecords());
        assertEquals("it was at the end when management began", 0, leader.highWatermark());
        assertEquals(2, leader.updateHighWatermark(2));
        assertEquals(2, leader.highWatermark());
        assertEquals("never beyond the end", 4, leader.updateHighWatermark(10));
        assertEquals("never below the start", 0, leader.updateHighWatermark(-5));
        leader.updateHighWatermark(4);
        leader.deleteRecordsBefore(3);
        leader.updateHighWatermark(1);
        assertEquals(3, leader.highWatermark());
        leader.setHighWatermarkFollowsLogEnd(true);
        assertEquals(4, leader.highWatermark());
    }
}
