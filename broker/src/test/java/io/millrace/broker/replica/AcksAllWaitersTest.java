package io.millrace.broker.replica;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.cluster.PartitionState;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.testkit.MockTime;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Test;

public class AcksAllWaitersTest {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final AcksAllWaiters waiters = new AcksAllWaiters(timer);
    private final Partition partition = new Partition(new TopicPartition("t", 0), 1, new MockTime(), 10_000);

    @After
    public void tearDown() {
        timer.shutdownNow();
    }

    private void lead() {
        partition.makeLeader(new PartitionState(List.of(1, 2), 1, 3, List.of(1, 2), 0), 0, 0);
    }

    private static Errors errorOf(CompletableFuture<Void> done) throws InterruptedException {
        try {
            done.get(5, TimeUnit.SECONDS);
            return Errors.NONE;
        } catch (ExecutionException e) {
            return ((ApiException) e.getCause()).error();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("not answered");
        }
    }

    @Test
    public void answersOnceTheFollowerHasTheBatch() throws Exception {
        lead();
        CompletableFuture<Void> done = waiters.await(partition, 3, 10, 2, 60_000);
        partition.recordFollowerFetch(2, 4, 10);
        waiters.check(partition.topicPartition());
        assertFalse(done.isDone());
        partition.recordFollowerFetch(2, 10, 10);
        waiters.check(partition.topicPartition());
        assertEquals(Errors.NONE, errorOf(done));
        assertEquals(0, waiters.size());
    }

    @Test
    public void timesOutWithRequestTimedOut() throws Exception {
        lead();
        assertEquals(Errors.REQUEST_TIMED_OUT, errorOf(waiters.await(partition, 3, 10, 2, 50)));
    }

    @Test
    public void aLeadershipChangeAnswersNotLeader() throws Exception {
        lead();
        CompletableFuture<Void> done = waiters.await(partition, 3, 10, 2, 60_000);
        partition.makeFollower(new PartitionState(List.of(1, 2), 2, 4, List.of(2), 1));
        waiters.check(partition.topicPartition());
        assertEquals(Errors.NOT_LEADER_OR_FOLLOWER, errorOf(done));
    }

    @Test
    public void aBatchAlreadyReplicatedIsAnsweredAtOnce() {
        lead();
        partition.recordFollowerFetch(2, 10, 10);
        assertTrue(waiters.await(partition, 3, 10, 2, 60_000).isDone());
    }
}
