package io.millrace.audit;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.MockTime;
import java.util.List;
import org.junit.Test;

/** Tumbling windows of event time, published when due and again as deltas when late events arrive. */
public class AuditCounterTest {

    private static final long WINDOW = 600_000;
    private static final long LATENESS = 60_000;
    private static final long T0 = 1_700_000_400_000L - 1_700_000_400_000L % WINDOW;   // a window's start

    private final MockTime time = new MockTime(T0);
    private final AuditCounter counter = new AuditCounter(WINDOW, LATENESS, time);

    @Test
    public void aWindowIsPublishedOnceItsEndPlusTheLatenessHasPassedAndLateEventsAsAFurtherDelta() {
        counter.count("views", T0 + 1_000, 100);
        counter.count("views", T0 + 2_000, 50);
        counter.count("views", T0 + WINDOW + 5, 10);   // the next window
        time.advance(WINDOW + LATENESS - 1);
        assertEquals("not due one millisecond before its end plus the lateness", List.of(), counter.drainDue(false));

        time.advance(1);
        List<WindowDelta> due = counter.drainDue(false);
        assertEquals(1, due.size());
        WindowDelta first = due.get(0);
        assertEquals("views", first.topic());
        assertEquals(T0, first.windowStart());
        assertEquals(T0 + WINDOW, first.windowEnd());
        assertEquals(2, first.count());
        assertEquals(150, first.bytes());
        assertEquals("nothing new, nothing published", List.of(), counter.drainDue(false));

        counter.count("views", T0 + 3_000, 7);   // late
        List<WindowDelta> late = counter.drainDue(false);
        assertEquals(1, late.size());
        assertEquals(1, late.get(0).count());
        assertEquals(7, late.get(0).bytes());
        assertEquals(T0, late.get(0).windowStart());

        List<WindowDelta> closing = counter.drainDue(true);
        assertEquals("closing publishes the window not yet due", 1, closing.size());
        assertEquals(T0 + WINDOW, closing.get(0).windowStart());
        assertEquals(1, closing.get(0).count());
    }

    @Test
    public void eventsWithoutATimeAndMalformedOnesAreCountedInTheWindowOfTheirArrival() {
        time.advance(30_000);
        counter.countWithoutTime("searches", 40);
        counter.countMalformed("searches");
        counter.countMalformed("searches");
        counter.countFailed("searches", T0 + 10);
        WindowDelta delta = counter.drainDue(true).get(0);
        assertEquals(T0, delta.windowStart());
        assertEquals(0, delta.count());
        assertEquals(1, delta.noTimeCount());
        assertEquals(40, delta.bytes());
        assertEquals(2, delta.malformedCount());
        assertEquals(1, delta.failedCount());
    }

    @Test
    public void latencyIsTheTimeTheTierSawTheEventMinusItsTime() {
        time.advance(5_000);
        for (int i = 0; i < 99; i++) {
            counter.count("views", time.milliseconds() - 100, 1);   // 100 ms old
        }
        counter.count("views", time.milliseconds() - 4_000, 1);      // one straggler
        WindowDelta delta = counter.drainDue(true).get(0);
        assertTrue("p50 about 100 ms: " + delta.latencyP50Ms(), delta.latencyP50Ms() >= 100 && delta.latencyP50Ms() < 125);
        assertTrue("p99 about 100 ms: " + delta.latencyP99Ms(), delta.latencyP99Ms() >= 100 && delta.latencyP99Ms() < 125);
        assertEquals(4_000, delta.latencyMaxMs());
    }

    @Test
    public void quietWindowsLeaveMemoryAndAnEventForThemLaterStillCounts() {
        for (int w = 0; w < 10; w++) {
            counter.count("views", T0 + w * WINDOW, 1);
        }
        assertEquals(10, counter.windowCount());
        time.advance(20 * WINDOW);
        assertEquals(10, counter.drainDue(false).size());
        counter.drainDue(false);   // quiet for a window after they were due: retired
        assertEquals(0, counter.windowCount());

        counter.count("views", T0, 1);   // very late
        List<WindowDelta> late = counter.drainDue(false);
        assertEquals(1, late.size());
        assertEquals(T0, late.get(0).windowStart());
        assertEquals(1, late.get(0).count());
    }

    @Test
    public void windowsOfDifferentTopicsAreSeparate() {
        counter.count("a", T0 + 1, 1);
        counter.count("b", T0 + 1, 1);
        counter.count("a", T0 + 2, 1);
        List<WindowDelta> all = counter.drainDue(true);
        assertEquals(2, all.size());
        assertEquals(3, all.stream().mapToLong(WindowDelta::count).sum());
        assertEquals(2, all.stream().filter(d -> d.topic().equals("a")).findFirst().orElseThrow().count());
    }
}
