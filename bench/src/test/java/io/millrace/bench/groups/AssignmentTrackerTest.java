package io.millrace.bench.groups;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.util.List;
import org.junit.Test;

public class AssignmentTrackerTest {

    private final AssignmentTracker<Integer> tracker = new AssignmentTracker<>(List.of(0, 1, 2, 3, 4, 5), 2);

    @Test
    public void completeWhenTheExpectedMembersEachOwnSomethingAndTogetherOwnEveryPartitionOnce() {
        tracker.assigned("a", List.of(0, 1, 2), 10);
        assertFalse(tracker.complete());
        tracker.assigned("b", List.of(3, 4), 20);
        assertFalse("partition 5 is owned by nobody", tracker.complete());
        tracker.assigned("b", List.of(5), 30);
        assertTrue(tracker.complete());
        assertEquals(30, tracker.completedAtNanos());
    }

    @Test
    public void anEagerRebalanceCompletesWhenTheLastMemberHasItsNewPartitions() {
        tracker.assigned("a", List.of(0, 1, 2), 1);
        tracker.assigned("b", List.of(3, 4, 5), 2);
        tracker.member("c");
        tracker.expect(3, 3);
        assertFalse("c owns nothing yet", tracker.complete());
        tracker.revoked("a", List.of(0, 1, 2), 4);
        tracker.revoked("b", List.of(3, 4, 5), 5);
        tracker.assigned("c", List.of(4, 5), 6);
        tracker.assigned("a", List.of(0, 1), 7);
        assertFalse(tracker.complete());
        tracker.assigned("b", List.of(2, 3), 8);
        assertEquals(8, tracker.completedAtNanos());
    }

    @Test
    public void aCooperativeRebalanceIsNotCompleteWhileAPartitionIsOwnedTwiceOrByNobody() {
        tracker.assigned("a", List.of(0, 1, 2), 1);
        tracker.assigned("b", List.of(3, 4, 5), 2);
        tracker.member("c");
        tracker.expect(3, 3);
        tracker.assigned("c", List.of(2, 5), 4); // as if handed over before being revoked
        assertFalse("2 and 5 owned twice", tracker.complete());
        tracker.revoked("a", List.of(2), 5);
        tracker.revoked("b", List.of(5), 6);
        assertEquals(6, tracker.completedAtNanos());
    }

    @Test
    public void expectingAnotherMemberCountForgetsTheEarlierCompletion() {
        tracker.assigned("a", List.of(0, 1, 2), -50);
        tracker.assigned("b", List.of(3, 4, 5), -40);
        assertEquals("nanoTime may be negative", -40, tracker.completedAtNanos());
        tracker.expect(3, 0);
        assertThrows(IllegalStateException.class, tracker::completedAtNanos);
        tracker.expect(2, 7);
        assertEquals("complete already when expected again", 7, tracker.completedAtNanos());
    }

    @Test
    public void awaitReturnsOnceCompleteFromAnotherThreadOrFalseAfterItsTimeout() throws Exception {
        assertFalse(tracker.await(20));
        Thread other = new Thread(() -> {
            tracker.assigned("a", List.of(0, 1, 2), 1);
            tracker.assigned("b", List.of(3, 4, 5), 2);
        });
        other.start();
        assertTrue(tracker.await(10_000));
        other.join();
    }
}
