package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static io.millrace.broker.log.LogTestUtils.config;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.LeaderEpochCache.EpochEndOffset;
import io.millrace.broker.log.LeaderEpochCache.EpochEntry;
import io.millrace.common.record.RecordBatch;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The leader epoch cache: Kafka's rules for assigning epochs and answering OffsetForLeaderEpoch,
 * truncation from either end, and the {@code leader-epoch-checkpoint} file (format, round trip,
 * and a damaged or missing file rebuilt from the batches' epochs).
 */
public class LeaderEpochCacheTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private Path dir;
    private Log log;

    @Before
    public void setUp() throws IOException {
        dir = temp.newFolder("events-0").toPath();
    }

    @After
    public void tearDown() {
        if (log != null) {
            log.close();
        }
    }

    private LeaderEpochCache cache() {
        log = Log.open(dir, config(), time);
        return log.leaderEpochCache();
    }

    private Log reopen() {
        log.close();
        log = Log.open(dir, config(), time);
        return log;
    }

    private Path file() {
        return dir.resolve(LogFileNames.LEADER_EPOCH_CHECKPOINT);
    }

    @Test
    public void onlyANewerEpochStartingNoEarlierIsAssigned() throws IOException {
        LeaderEpochCache cache = cache();
        assertEquals(LeaderEpochCache.UNDEFINED_EPOCH, cache.latestEpoch());
        assertTrue(cache.assign(2, 10));
        assertFalse("the same epoch keeps its first start offset", cache.assign(2, 15));
        assertFalse("nor may it move earlier", cache.assign(2, 5));
        assertFalse("an older epoch is ignored", cache.assign(1, 20));
        assertFalse("a newer epoch starting earlier is ignored", cache.assign(3, 9));
        assertTrue(cache.assign(3, 10));
        assertTrue(cache.assign(5, 30));
        assertEquals(List.of(new EpochEntry(2, 10), new EpochEntry(3, 10), new EpochEntry(5, 30)), cache.entries());
        assertEquals(5, cache.latestEpoch());
        assertThrows(IllegalArgumentException.class, () -> cache.assign(-1, 40));
        assertThrows(IllegalArgumentException.class, () -> cache.assign(6, -1));
    }

    @Test
    public void endOffsetForFollowsKafka() throws IOException {
        LeaderEpochCache cache = cache();
        assertEquals("an empty cache knows nothing", EpochEndOffset.UNDEFINED, cache.endOffsetFor(0, 100));
        cache.assign(1, 10);
        cache.assign(3, 20);
        cache.assign(6, 35);
        long logEnd = 50;
        assertEquals("the latest epoch ends at the log end", new EpochEndOffset(6, 50), cache.endOffsetFor(6, logEnd));
        assertEquals("an epoch ends where the next begins", new EpochEndOffset(3, 35), cache.endOffsetFor(3, logEnd));
        assertEquals(new EpochEndOffset(1, 20), cache.endOffsetFor(1, logEnd));
        assertEquals("an epoch never had answers with the one before it and the next's start",
            new EpochEndOffset(3, 35), cache.endOffsetFor(4, logEnd));
        assertEquals(new EpochEndOffset(1, 20), cache.endOffsetFor(2, logEnd));
        assertEquals("an epoch below every entry gets itself and the first start offset",
            new EpochEndOffset(0, 10), cache.endOffsetFor(0, logEnd));
        assertEquals("above the latest: undefined", EpochEndOffset.UNDEFINED, cache.endOffsetFor(7, logEnd));
        assertEquals("the undefined epoch: undefined", EpochEndOffset.UNDEFINED,
            cache.endOffsetFor(LeaderEpochCache.UNDEFINED_EPOCH, logEnd));
    }

    @Test
    public void theEpochOfAnOffsetIsThatOfTheLastEntryBeginningAtOrBeforeIt() throws IOException {
        LeaderEpochCache cache = cache();
        assertEquals(LeaderEpochCache.UNDEFINED_EPOCH, cache.epochForOffset(0));
        cache.assign(1, 10);
        cache.assign(4, 25);
        assertEquals("before every entry", LeaderEpochCache.UNDEFINED_EPOCH, cache.epochForOffset(9));
        assertEquals(1, cache.epochForOffset(10));
        assertEquals(1, cache.epochForOffset(24));
        assertEquals(4, cache.epochForOffset(25));
        assertEquals(4, cache.epochForOffset(1_000));
    }

    @Test
    public void truncationFromTheEndRemovesTheEpochsStartingAtOrAfterIt() throws IOException {
        LeaderEpochCache cache = cache();
        cache.assign(1, 10);
        cache.assign(3, 20);
        cache.assign(6, 35);
        cache.truncateFromEnd(36);
        assertEquals(3, cache.entries().size());
        cache.truncateFromEnd(35);
        assertEquals(List.of(new EpochEntry(1, 10), new EpochEntry(3, 20)), cache.entries());
        assertEquals(3, cache.latestEpoch());
        cache.truncateFromEnd(0);
        assertEquals(List.of(), cache.entries());
        assertEquals(LeaderEpochCache.UNDEFINED_EPOCH, cache.latestEpoch());
    }

    @Test
    public void truncationFromTheStartKeepsTheEpochHoldingTheNewStart() throws IOException {
        LeaderEpochCache cache = cache();
        cache.assign(1, 10);
        cache.assign(3, 20);
        cache.assign(6, 35);
        cache.truncateFromStart(5);
        assertEquals("nothing below the first entry", 3, cache.entries().size());
        cache.truncateFromStart(25);
        assertEquals(List.of(new EpochEntry(3, 25), new EpochEntry(6, 35)), cache.entries());
        cache.truncateFromStart(35);
        assertEquals("an epoch starting exactly there stays", List.of(new EpochEntry(6, 35)), cache.entries());
        assertEquals(new EpochEndOffset(6, 40), cache.endOffsetFor(6, 40));
    }

    @Test
    public void theFileIsKafkasTextFormatAndReadsBack() throws IOException {
        LeaderEpochCache cache = cache();
        assertEquals("an empty cache writes an empty file", "0\n0\n", Files.readString(file()));
        cache.assign(0, 0);
        cache.assign(4, 1200);
        assertEquals("0\n2\n0 0\n4 1200\n", Files.readString(file()));
        assertFalse("no temporary file left", Files.exists(file().resolveSibling(file().getFileName() + ".tmp")));
        assertEquals(List.of(new EpochEntry(0, 0), new EpochEntry(4, 1200)), new LeaderEpochCheckpointFile(dir).read().orElseThrow());
        log.leaderEpochCache().truncateFromEnd(1200);
        assertEquals("0\n1\n0 0\n", Files.readString(file()));
    }

    /** Batches of epochs 1, 1, 3 and -1 (none), appended as a follower would. */
    private void replicateEpochs() {
        long offset = 0;
        for (int epoch : new int[] {1, 1, 3, RecordBatch.NO_PARTITION_LEADER_EPOCH}) {
            ByteBuffer batch = batch(time.milliseconds(), "a", "b");
            RecordBatch view = RecordBatch.wrap(batch);
            view.setBaseOffset(offset);
            view.setPartitionLeaderEpoch(epoch);
            log.appendAsFollower(batch);
            offset += 2;
        }
    }

    @Test
    public void aReopenedLogReadsItsEpochsBack() throws IOException {
        cache();
        replicateEpochs();
        assertEquals(List.of(new EpochEntry(1, 0), new EpochEntry(3, 4)), reopen().leaderEpochCache().entries());
    }

    @Test
    public void aMissingFileIsRebuiltFromTheBatchesEpochs() throws IOException {
        cache();
        replicateEpochs();
        List<EpochEntry> expected = List.of(new EpochEntry(1, 0), new EpochEntry(3, 4));
        assertEquals(expected, log.leaderEpochCache().entries());
        log.close();
        Files.delete(file());
        assertEquals(expected, reopen().leaderEpochCache().entries());
        assertEquals("and written again", "0\n2\n1 0\n3 4\n", Files.readString(file()));
    }

    @Test
    public void aDamagedFileIsRebuiltFromTheBatchesEpochs() throws IOException {
        cache();
        replicateEpochs();
        log.close();
        for (String damage : new String[] {"0\n3\n1 0\n3 4\n", "1\n0\n", "0\n2\n1 zero\n3 4\n", "0\n2\n3 0\n1 4\n", "garbage"}) {
            Files.writeString(file(), damage);
            assertEquals(damage, List.of(new EpochEntry(1, 0), new EpochEntry(3, 4)), reopen().leaderEpochCache().entries());
            log.close();
        }
    }

    @Test
    public void loadingDropsEpochsBeyondTheEndAndBelowTheStart() throws IOException {
        cache();
        replicateEpochs();
        log.leaderEpochCache().assign(4, 8);
        log.close();
        // Entries the file had beyond the log end (records lost in a crash) and an epoch begun at the end.
        Files.writeString(file(), "0\n5\n0 0\n1 2\n3 4\n4 8\n7 12\n");
        List<EpochEntry> loaded = reopen().leaderEpochCache().entries();
        assertEquals(List.of(new EpochEntry(0, 0), new EpochEntry(1, 2), new EpochEntry(3, 4), new EpochEntry(4, 8)), loaded);
        log.deleteRecordsBefore(5);
        assertEquals("DeleteRecords moves the first epoch's start", List.of(new EpochEntry(3, 5), new EpochEntry(4, 8)),
            log.leaderEpochCache().entries());
        assertEquals("0\n2\n3 5\n4 8\n", Files.readString(file()));
    }
}
