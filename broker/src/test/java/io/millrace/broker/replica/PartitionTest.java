package io.millrace.broker.replica;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.cluster.PartitionState;
import io.millrace.broker.replica.Partition.IsrChange;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.testkit.MockTime;
import java.util.List;
import java.util.Optional;
import org.junit.Test;

public class PartitionTest {

    private static final long LAG_MS = 10_000;
    private static final TopicPartition TP = new TopicPartition("t", 0);

    private final MockTime time = new MockTime();
    private final Partition partition = new Partition(TP, 1, time, LAG_MS);

    private static PartitionState leadership(int epoch, List<Integer> isr, int zkVersion) {
        return new PartitionState(List.of(1, 2, 3), 1, epoch, isr, zkVersion);
    }

    private void leadAllInSync(long leo) {
        assertTrue(partition.makeLeader(leadership(0, List.of(1, 2, 3), 0), leo, 0));
    }

    @Test
    public void highWatermarkIsTheLeastLogEndOffsetOverTheIsr() {
        leadAllInSync(10);
        assertEquals("followers not heard from hold the HW", 0, partition.highWatermark());
        partition.recordFollowerFetch(2, 7, 10);
        assertEquals(0, partition.highWatermark());
        partition.recordFollowerFetch(3, 5, 10);
        assertEquals(5, partition.highWatermark());
        partition.recordFollowerFetch(3, 10, 10);
        assertEquals(7, partition.highWatermark());
        partition.recordFollowerFetch(2, 10, 10);
        assertEquals(10, partition.highWatermark());
    }

    @Test
    public void highWatermarkNeverMovesBackwards() {
        partition.makeLeader(leadership(0, List.of(1, 2), 0), 10, 8);
        assertEquals("the log's HW is kept", 8, partition.highWatermark());
        partition.recordFollowerFetch(2, 4, 10);
        assertEquals(8, partition.highWatermark());
    }

    @Test
    public void anIsrOfTheLeaderAloneFollowsTheLogEnd() {
        partition.makeLeader(leadership(0, List.of(1), 0), 0, 0);
        assertTrue(partition.onLeaderAppend(5));
        assertEquals(5, partition.highWatermark());
    }

    @Test
    public void aFollowerNotCaughtUpWithinTheLagTimeLeavesTheIsr() {
        leadAllInSync(10);
        partition.recordFollowerFetch(2, 10, 10);
        partition.recordFollowerFetch(3, 10, 10);
        time.advance(LAG_MS / 2);
        partition.recordFollowerFetch(2, 20, 20); // 2 keeps up, 3 stops fetching
        assertEquals(Optional.empty(), partition.maybeShrinkIsr(20));
        time.advance(LAG_MS / 2 + 1);
        IsrChange shrink = partition.maybeShrinkIsr(20).orElseThrow();
        assertEquals(List.of(1, 2), shrink.state().isr());
        assertEquals(0, shrink.expectedZkVersion());
        assertEquals("until ZooKeeper has it, 3 still holds the HW", 10, partition.highWatermark());
        assertTrue(partition.isrWritten(shrink, 1, 20));
        assertEquals(List.of(1, 2), partition.isr());
        assertEquals(20, partition.highWatermark());
    }

    @Test
    public void aFollowerFetchingEverythingThatArrivesStaysInSync() {
        leadAllInSync(0);
        for (int i = 1; i <= 10; i++) {
            long leo = i * 100L;
            partition.recordFollowerFetch(2, leo - 100, leo); // always one fetch behind
            partition.recordFollowerFetch(3, leo - 100, leo);
            time.advance(LAG_MS / 3);
            assertEquals("round " + i, Optional.empty(), partition.maybeShrinkIsr(leo));
        }
    }

    @Test
    public void aFollowerThatNeverFetchesLeavesAfterTheLagTime() {
        leadAllInSync(10);
        partition.recordFollowerFetch(2, 10, 10);
        time.advance(LAG_MS + 1);
        partition.recordFollowerFetch(2, 10, 10);
        assertEquals(List.of(1, 2), partition.maybeShrinkIsr(10).orElseThrow().state().isr());
    }

    @Test
    public void aFollowerRejoinsOnceItReachesTheHighWatermark() {
        partition.makeLeader(leadership(0, List.of(1, 2), 3), 10, 0);
        partition.recordFollowerFetch(2, 10, 10);
        assertEquals(10, partition.highWatermark());
        assertEquals(Optional.empty(), partition.recordFollowerFetch(3, 4, 10));
        IsrChange expand = partition.recordFollowerFetch(3, 10, 10).orElseThrow();
        assertEquals(List.of(1, 2, 3), expand.state().isr());
        assertEquals(3, expand.expectedZkVersion());
        assertEquals("one change at a time", Optional.empty(), partition.maybeShrinkIsr(10));
        assertTrue(partition.isrWritten(expand, 4, 10));
        assertEquals(List.of(1, 2, 3), partition.isr());
    }

    @Test
    public void aFailedIsrWriteMayBeProposedAgain() {
        partition.makeLeader(leadership(0, List.of(1, 2), 0), 10, 10);
        IsrChange first = partition.recordFollowerFetch(3, 10, 10).orElseThrow();
        partition.isrWriteFailed(first);
        assertEquals(List.of(1, 2), partition.isr());
        assertTrue(partition.recordFollowerFetch(3, 10, 10).isPresent());
    }

    @Test
    public void aNewEpochDropsTheChangeInFlight() {
        partition.makeLeader(leadership(0, List.of(1, 2), 0), 10, 10);
        IsrChange expand = partition.recordFollowerFetch(3, 10, 10).orElseThrow();
        assertTrue(partition.makeLeader(leadership(1, List.of(1, 2), 1), 10, 10));
        assertFalse(partition.isrWritten(expand, 2, 10));
        assertEquals(List.of(1, 2), partition.isr());
        assertEquals(10, partition.leaderEpochStartOffset());
    }

    @Test
    public void appendsNeedMinInsyncReplicas() {
        partition.makeLeader(leadership(0, List.of(1), 0), 0, 0);
        assertEquals(Errors.NOT_ENOUGH_REPLICAS, partition.checkAppend(2));
        assertEquals(Errors.NONE, partition.checkAppend(1));
        partition.makeFollower(new PartitionState(List.of(1, 2, 3), 2, 1, List.of(2), 1));
        assertEquals(Errors.NOT_LEADER_OR_FOLLOWER, partition.checkAppend(1));
    }

    @Test
    public void acksAllCompletesWhenTheHighWatermarkPassesTheBatch() {
        leadAllInSync(0);
        long required = 5; // a batch at offsets 0..4
        assertEquals(Optional.empty(), partition.ackStatus(0, required, 2));
        partition.recordFollowerFetch(2, 5, 5);
        assertEquals(Optional.empty(), partition.ackStatus(0, required, 2));
        partition.recordFollowerFetch(3, 5, 5);
        assertEquals(Optional.of(Errors.NONE), partition.ackStatus(0, required, 2));
    }

    @Test
    public void acksAllAfterTheIsrShrankBelowTheMinimumIsNotEnoughReplicasAfterAppend() {
        partition.makeLeader(leadership(0, List.of(1, 2), 0), 0, 0);
        partition.recordFollowerFetch(2, 0, 0);
        time.advance(LAG_MS + 1);
        IsrChange shrink = partition.maybeShrinkIsr(5).orElseThrow();
        partition.isrWritten(shrink, 1, 5);
        assertEquals(Optional.of(Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND), partition.ackStatus(0, 5, 2));
    }

    @Test
    public void acksAllIsRefusedOnceLeadershipMoves() {
        leadAllInSync(0);
        partition.makeFollower(new PartitionState(List.of(1, 2, 3), 2, 1, List.of(2, 3), 1));
        assertEquals(Optional.of(Errors.NOT_LEADER_OR_FOLLOWER), partition.ackStatus(0, 5, 1));
    }

    @Test
    public void aFollowersHighWatermarkIsTheLeadersCappedByItsLog() {
        partition.makeFollower(new PartitionState(List.of(1, 2, 3), 2, 0, List.of(1, 2, 3), 0));
        partition.updateFollowerHighWatermark(100, 40);
        assertEquals(40, partition.highWatermark());
        partition.updateFollowerHighWatermark(100, 120);
        assertEquals(100, partition.highWatermark());
        partition.onTruncation(90);
        assertEquals(90, partition.highWatermark());
    }
}
