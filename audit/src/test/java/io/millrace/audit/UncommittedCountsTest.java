package io.millrace.audit;

import static org.junit.Assert.assertEquals;

import io.millrace.common.TopicPartition;
import io.millrace.testkit.MockTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.Test;

/**
 * Counts of consumed records are held per partition until a commit covers their offsets; records read
 * again replace their earlier counts; partitions given up without a commit take theirs with them.
 */
public class UncommittedCountsTest {

    private static final long WINDOW = 60_000;
    private static final long T0 = 1_700_000_000_000L - 1_700_000_000_000L % WINDOW;
    private static final TopicPartition P0 = new TopicPartition("views", 0);
    private static final TopicPartition P1 = new TopicPartition("views", 1);

    private final MockTime time = new MockTime(T0 + 5 * WINDOW);
    private final AuditCounter counter = new AuditCounter(WINDOW, 0, time);
    private final UncommittedCounts counts = new UncommittedCounts(counter);

    @Test
    public void nothingIsCountedUntilACommitCoversItAndThenOnlyTheRecordsBelowTheCommittedOffset() {
        for (long offset = 0; offset < 10; offset++) {
            counts.count(P0, offset, T0 + offset, 100);
        }
        assertEquals("held, not counted", List.of(), counter.drainDue(true));
        assertEquals(10, counts.heldRecords());

        counts.release(P0, 4);
        WindowDelta first = only(counter.drainDue(true));
        assertEquals(4, first.count());
        assertEquals(400, first.bytes());
        assertEquals(T0, first.windowStart());
        assertEquals(6, counts.heldRecords());

        counts.release(P0, 10);
        assertEquals(6, only(counter.drainDue(true)).count());
        assertEquals(0, counts.heldRecords());
    }

    @Test
    public void eachRecordLandsInTheWindowOfItsTimeOrOfItsArrivalWhenItHasNoneOrCannotBeDecoded() {
        counts.count(P0, 0, T0 + 10, 7);
        counts.count(P0, 1, T0 + WINDOW + 10, 8);
        counts.count(P0, 2, -1, 9);
        counts.countMalformed(P0, 3);
        counts.count(P0, 4, T0 + 20, 10);
        counts.release(P0, 5);
        Map<Long, WindowDelta> byWindow = byWindow(counter.drainDue(true));
        long arrival = T0 + 5 * WINDOW;
        assertEquals(3, byWindow.size());
        assertEquals(2, byWindow.get(T0).count());
        assertEquals(17, byWindow.get(T0).bytes());
        assertEquals(1, byWindow.get(T0 + WINDOW).count());
        assertEquals(1, byWindow.get(arrival).noTimeCount());
        assertEquals(9, byWindow.get(arrival).bytes());
        assertEquals(1, byWindow.get(arrival).malformedCount());
        assertEquals(0, byWindow.get(arrival).count());
    }

    @Test
    public void recordsReadAgainFromAnEarlierOffsetReplaceTheirEarlierCounts() {
        for (long offset = 0; offset < 8; offset++) {
            counts.count(P0, offset, T0, 10);
        }
        for (long offset = 5; offset < 8; offset++) {   // a rewind to 5: the same records again
            counts.count(P0, offset, T0, 10);
        }
        assertEquals(8, counts.heldRecords());
        counts.release(P0, 8);
        WindowDelta delta = only(counter.drainDue(true));
        assertEquals(8, delta.count());
        assertEquals(80, delta.bytes());
    }

    @Test
    public void aSealMarksWhatACommitStartedLaterCoversAndKeepsLaterRecordsApart() {
        counts.count(P0, 0, T0, 1);
        counts.count(P0, 1, T0, 1);
        counts.count(P1, 7, T0, 1);
        Map<TopicPartition, Long> marks = counts.seal();
        assertEquals(Map.of(P0, 2L, P1, 8L), marks);
        counts.count(P0, 2, T0, 1);   // after the mark: not covered by that commit
        marks.forEach(counts::release);
        assertEquals(3, only(counter.drainDue(true)).count());
        assertEquals(1, counts.heldRecords());
    }

    @Test
    public void partitionsGivenUpTakeTheirCountsWithThemUnlessTheyWereCommitted() {
        counts.count(P0, 0, T0, 1);
        counts.count(P1, 0, T0, 1);
        counts.count(P1, 1, T0, 1);
        counts.discard(Set.of(P0));
        counts.releaseAll(Set.of(P1));
        assertEquals(2, only(counter.drainDue(true)).count());

        counts.count(P0, 1, T0, 1);
        counts.retain(Set.of(P1));
        counts.release(P0, 100);
        assertEquals("P0 is no longer owned: its count went with it", List.of(), counter.drainDue(true));
    }

    @Test
    public void latenciesMeasuredAsRecordsPassedGoOutWithTheirWindow() {
        counts.count(P0, 0, T0 + 5 * WINDOW - 2_000, 1);   // seen 2 s after its time
        time.advance(60_000);                              // committed a minute later
        counts.release(P0, 1);
        WindowDelta delta = only(counter.drainDue(true));
        assertEquals(2_000, delta.latencyMaxMs());
    }

    private static WindowDelta only(List<WindowDelta> deltas) {
        assertEquals(deltas.toString(), 1, deltas.size());
        return deltas.get(0);
    }

    private static Map<Long, WindowDelta> byWindow(List<WindowDelta> deltas) {
        Map<Long, WindowDelta> map = new java.util.HashMap<>();
        deltas.forEach(d -> map.put(d.windowStart(), d));
        return map;
    }
}
