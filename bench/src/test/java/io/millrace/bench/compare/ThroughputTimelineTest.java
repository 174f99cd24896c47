package io.millrace.bench.compare;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.Test;

public class ThroughputTimelineTest {

    private static final long MS = 1_000_000L;

    private final AtomicLong now = new AtomicLong(5_000 * MS);
    private final ThroughputTimeline timeline = new ThroughputTimeline(100 * MS, 10, now::get);

    private void at(long millisSinceStart, long records) {
        now.set(5_000 * MS + millisSinceStart * MS);
        timeline.add(records);
    }

    @Test
    public void countsEachIntervalAsRecordsPerSecond() {
        timeline.start();
        at(0, 10);
        at(99, 20);
        at(100, 5);
        at(250, 7);
        now.set(5_000 * MS + 300 * MS);
        timeline.stop();
        assertArrayEquals(new double[] {300, 50, 70}, timeline.recordsPerSecond(), 1e-9);
        assertEquals(100, timeline.intervalMillis());
    }

    @Test
    public void ignoresRecordsBeforeStart() {
        timeline.add(1_000);
        assertEquals(0, timeline.recordsPerSecond().length);
        timeline.start();
        at(10, 1);
        now.set(5_000 * MS + 100 * MS);
        timeline.stop();
        assertArrayEquals(new double[] {10}, timeline.recordsPerSecond(), 1e-9);
        assertEquals(1, timeline.total());
    }

    @Test
    public void lastPartialIntervalIsRatedOverItsTimedPart() {
        timeline.start();
        at(50, 10);
        at(150, 30);
        now.set(5_000 * MS + 160 * MS);
        // 60 ms into the second interval: 30 records over 60 ms
        assertArrayEquals(new double[] {100, 500}, timeline.recordsPerSecond(), 1e-9);
    }

    @Test
    public void aSliverAtTheEndIsFoldedIntoTheIntervalBefore() {
        timeline.start();
        at(50, 10);
        at(150, 20);
        at(201, 1);
        now.set(5_000 * MS + 210 * MS);
        timeline.stop();
        // 21 records over the 110 ms from 100 to 210 ms, not 1 record over 10 ms
        assertArrayEquals(new double[] {100, 21 / 0.110}, timeline.recordsPerSecond(), 1e-9);
    }

    @Test
    public void recordsPastTheLastIntervalLandInItAndItsRateCoversTheOverflow() {
        timeline.start();
        at(950, 10);
        at(1_900, 30);
        now.set(5_000 * MS + 2_000 * MS);
        timeline.stop();
        double[] rates = timeline.recordsPerSecond();
        assertEquals(10, rates.length);
        // the last slot covers 900 ms to 2,000 ms: 40 records over 1.1 s
        assertEquals(40 / 1.1, rates[9], 1e-9);
        assertEquals(0, rates[8], 0);
        assertEquals(40, timeline.total());
    }

    @Test
    public void restartForgetsTheStopTime() {
        timeline.start();
        now.set(5_000 * MS + 100 * MS);
        timeline.stop();
        timeline.start();
        now.set(5_000 * MS + 400 * MS);
        assertEquals(3, timeline.recordsPerSecond().length);
    }

    @Test
    public void addsFromManyThreadsAreAllCounted() throws Exception {
        ThroughputTimeline real = new ThroughputTimeline();
        real.start();
        int threads = 4;
        int perThread = 100_000;
        CountDownLatch go = new CountDownLatch(1);
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            workers[t] = new Thread(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                for (int i = 0; i < perThread; i++) {
                    real.add(1);
                }
            });
            workers[t].start();
        }
        go.countDown();
        for (Thread w : workers) {
            w.join();
        }
        real.stop();
        assertEquals((long) threads * perThread, real.total());
    }
}
