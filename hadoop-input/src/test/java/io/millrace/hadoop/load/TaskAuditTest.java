package io.millrace.hadoop.load;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.hadoop.state.WindowCount;
import io.millrace.testkit.MockTime;
import java.util.List;
import java.util.Map;
import org.junit.Test;

/** A task's audit counts: per topic and window of event time, with events without a time and undecodable ones kept. */
public class TaskAuditTest {

    private static final long WINDOW = 600_000;
    private static final long T0 = 1_706_695_200_000L;   // 2024-01-31T10:00Z, a window's start
    private static final long LOADED_AT = T0 + 5 * WINDOW + 123;

    private final TaskAudit audit = new TaskAudit(WINDOW, new MockTime(LOADED_AT));

    @Test
    public void eventsAreCountedInTheWindowOfTheirTimeWithTheirBytesAndLatency() {
        audit.written("views", T0 + 1_000, new byte[3], new byte[10]);
        audit.written("views", T0 + 2_000, null, new byte[20]);
        audit.written("views", T0 + WINDOW, new byte[1], new byte[1]);
        audit.written("clicks", T0 + 5, new byte[2], null);

        List<WindowCount> windows = sorted(audit.windows());
        long clickLatency = LOADED_AT - T0 - 5;
        assertEquals("one event: its latency is every percentile",
            new WindowCount("clicks", T0, T0 + WINDOW, 1, 2, 0, 0, clickLatency, clickLatency, clickLatency), windows.get(0));
        WindowCount views = windows.get(1);
        assertEquals(List.of("views", T0, T0 + WINDOW, 2L, 33L, 0L, 0L), List.of(views.topic(), views.windowStart(),
            views.windowEnd(), views.count(), views.bytes(), views.noTimeCount(), views.malformedCount()));
        assertEquals("the oldest event's latency", LOADED_AT - T0 - 1_000, views.latencyMaxMs());
        assertTrue("p50 never below the true value", views.latencyP50Ms() >= LOADED_AT - T0 - 2_000);
        assertTrue(views.latencyP50Ms() <= views.latencyP99Ms() && views.latencyP99Ms() <= views.latencyMaxMs());
        assertEquals(new WindowCount("views", T0 + WINDOW, T0 + 2 * WINDOW, 1, 2, 0, 0, LOADED_AT - T0 - WINDOW,
            LOADED_AT - T0 - WINDOW, LOADED_AT - T0 - WINDOW), windows.get(2));
        assertEquals(3, windows.size());
    }

    @Test
    public void eventsWithoutATimeAndUndecodableMessagesAreCountedInTheWindowOfTheLoadInTheirOwnFields() {
        audit.written("views", -1, new byte[4], new byte[6]);
        audit.undecodable(Map.of("views", 3L, "clicks", 1L));
        long loadWindow = LOADED_AT - LOADED_AT % WINDOW;

        assertEquals(List.of(new WindowCount("clicks", loadWindow, loadWindow + WINDOW, 0, 0, 0, 1, 0, 0, 0),
            new WindowCount("views", loadWindow, loadWindow + WINDOW, 0, 10, 1, 3, 0, 0, 0)), sorted(audit.windows()));
    }

    @Test
    public void windowsOfTwoTasksAddUpAndKeepTheLargerLatencies() {
        WindowCount a = new WindowCount("views", T0, T0 + WINDOW, 10, 100, 1, 2, 50, 90, 95);
        WindowCount b = new WindowCount("views", T0, T0 + WINDOW, 5, 40, 0, 1, 70, 80, 200);
        assertEquals(new WindowCount("views", T0, T0 + WINDOW, 15, 140, 1, 3, 70, 90, 200), a.plus(b));
        assertThrows(IllegalArgumentException.class,
            () -> a.plus(new WindowCount("views", T0 + WINDOW, T0 + 2 * WINDOW, 1, 1, 0, 0, 1, 1, 1)));
    }

    private static List<WindowCount> sorted(List<WindowCount> windows) {
        return windows.stream().sorted(java.util.Comparator.comparing(WindowCount::topic)
            .thenComparingLong(WindowCount::windowStart)).toList();
    }
}
