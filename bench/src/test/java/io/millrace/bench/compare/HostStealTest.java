package io.millrace.bench.compare;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;
import static org.junit.Assume.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.Test;

public class HostStealTest {

    private static final long MS = 1_000_000L;

    @Test
    public void readsEachVcpusStealColumnAndSkipsTheTotal() {
        List<String> procStat = List.of(
            "cpu  4705 356 584 3699176 23 23 0 41 0 0",
            "cpu0 1393280 32966 572056 13343292 6130 0 17875 7 0 0",
            "cpu1 1335294 31111 556111 13411522 6011 0 12441 12 0 0",
            "intr 114930548 113199788 3 0 5 263 0 0 0 1",
            "ctxt 1990473");
        assertArrayEquals(new long[] {7, 12}, HostSteal.stealTicks(procStat));
    }

    @Test
    public void noStealColumnMeansNothingMeasured() {
        assertNull("a kernel without the column", HostSteal.stealTicks(List.of("cpu0 1 2 3 4 5 6 7")));
        assertNull("no per-CPU lines", HostSteal.stealTicks(List.of("intr 1 2", "ctxt 3")));
        HostSteal steal = new HostSteal();
        assertFalse(steal.measured());
    }

    @Test
    public void countsTheTicksAddedBetweenSamples() {
        HostSteal steal = new HostSteal();
        steal.sample(0, new long[] {5, 9});
        steal.sample(5 * MS, new long[] {5, 9});
        steal.sample(10 * MS, new long[] {8, 10});
        steal.sample(15 * MS, new long[] {8, 10});
        steal.sample(20 * MS, new long[] {9, 12});
        assertTrue(steal.measured());
        assertEquals(List.of(new HostSteal.Interval(5 * MS, 10 * MS, 4, 3), new HostSteal.Interval(15 * MS, 20 * MS, 3, 2)),
            steal.intervals());
        assertEquals("7 ticks over both vCPUs", 70.0, steal.stolenMillis(), 0.0);
        assertEquals("3 ticks on cpu0 in one interval", 30.0, steal.longestStealMillis(), 0.0);
    }

    @Test
    public void aMessageIsNearAStealThatEndedShortlyBeforeItsSendOrDuringItsFlight() {
        HostSteal steal = new HostSteal();
        steal.sample(1_000 * MS, new long[] {0});
        steal.sample(1_010 * MS, new long[] {2});
        // ended at 1,010 ms: sends up to 100 ms later are near it
        assertTrue(steal.near(1_110 * MS, 1_115 * MS));
        assertFalse(steal.near(1_111 * MS, 1_115 * MS));
        // in flight across it
        assertTrue(steal.near(900 * MS, 1_050 * MS));
        // received up to 20 ms before it began is near: the tick may have started earlier
        assertTrue(steal.near(900 * MS, 980 * MS));
        assertFalse(steal.near(900 * MS, 979 * MS));
    }

    @Test
    public void findsTheRightIntervalAmongMany() {
        HostSteal steal = new HostSteal();
        long[] ticks = {0};
        for (int i = 0; i <= 100; i++) {
            steal.sample(i * 1_000 * MS, ticks.clone());
            ticks[0] += i % 10 == 0 ? 1 : 0;
        }
        // a steal is counted in the intervals ending at 1 s, 11 s, ..., 91 s
        assertEquals(10, steal.intervals().size());
        assertTrue("51 s, just after the one ending at 51 s", steal.near(51_050 * MS, 51_060 * MS));
        assertFalse("55 s, seconds from any", steal.near(55_000 * MS, 55_010 * MS));
        assertTrue("91 s, the last", steal.near(90_950 * MS, 90_960 * MS));
        assertFalse("after the last", steal.near(95_000 * MS, 95_010 * MS));
    }

    @Test
    public void readsThisMachinesCountersWhileRunning() throws Exception {
        assumeTrue("a Linux /proc/stat", Files.isReadable(Path.of("/proc/stat")));
        assumeTrue("with a steal column", HostSteal.stealTicks(Files.readAllLines(Path.of("/proc/stat"))) != null);
        HostSteal steal = HostSteal.start();
        Thread.sleep(50);
        steal.close();
        assertTrue(steal.measured());
        assertTrue(steal.stolenMillis() >= 0 && steal.longestStealMillis() <= steal.stolenMillis());
    }
}
