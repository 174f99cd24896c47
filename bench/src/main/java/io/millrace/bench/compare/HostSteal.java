package io.millrace.bench.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * When the host took this virtual machine's CPUs away during a run: the {@code steal} column of each
 * {@code cpuN} line of {@code /proc/stat}, read every few milliseconds. While the host runs something
 * else on a vCPU, the thread on it stops, whichever process it belongs to. The guest's own meters
 * (a hiccup meter, GC and safepoint logs) see at most a thread waking late, with no cause; only the
 * steal counter says the host did it. A run's tail that lines up with steal is the host's, not a
 * stack's. The counter misses some takes (about one in seven, against a probe at real-time
 * priority), so a run away from counted steal is not thereby free of the host.
 *
 * <p>The kernel counts steal in 1/100 s ticks ({@code USER_HZ}, 100 on every Linux ABI) and adds them
 * as the vCPU comes back, so an interval between two samples in which the counter moved is where a
 * steal ended, known to about 10 ms. Where {@code /proc/stat} has no steal column (not Linux, not a
 * virtual machine that reports it) the meter records nothing.
 */
final class HostSteal implements AutoCloseable {

    /** Milliseconds per tick of {@code /proc/stat}. */
    static final double MILLIS_PER_TICK = 10;
    /** Messages sent this soon after a steal are near it: the JVMs' threads, parked through it, all wake at once. */
    static final long BEFORE_SEND_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** A steal counted this soon after a message arrived may have begun before it (the tick's resolution). */
    static final long AFTER_RECEIPT_NANOS = TimeUnit.MILLISECONDS.toNanos(20);

    private static final Path PROC_STAT = Path.of("/proc/stat");
    private static final long SAMPLE_NANOS = TimeUnit.MILLISECONDS.toNanos(5);
    private static final int STEAL_COLUMN = 8;

    /**
     * Between {@code fromNanos} and {@code toNanos} ({@link System#nanoTime()}), {@code ticks} of steal
     * were counted over all vCPUs, {@code mostOnOneCpu} of them on one.
     */
    record Interval(long fromNanos, long toNanos, long ticks, long mostOnOneCpu) {
    }

    private final List<Interval> stolen = new ArrayList<>();
    private final Thread meter;
    private volatile boolean running = true;
    private long lastNanos;
    private long[] lastTicks;

    HostSteal() {
        meter = new Thread(this::measure, "e2e-steal-meter");
        meter.setDaemon(true);
    }

    static HostSteal start() {
        HostSteal steal = new HostSteal();
        steal.meter.start();
        return steal;
    }

    private void measure() {
        while (running) {
            long[] ticks = read();
            if (ticks == null) {
                return;
            }
            sample(System.nanoTime(), ticks);
            LockSupport.parkNanos(SAMPLE_NANOS);
        }
    }

    private static long[] read() {
        try {
            return stealTicks(Files.readAllLines(PROC_STAT));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Each vCPU's steal ticks from the lines of {@code /proc/stat}, or null when they have no steal column. */
    static long[] stealTicks(List<String> procStat) {
        List<Long> ticks = new ArrayList<>();
        for (String line : procStat) {
            if (line.startsWith("cpu") && line.length() > 3 && Character.isDigit(line.charAt(3))) {
                String[] fields = line.trim().split("\\s+");
                if (fields.length <= STEAL_COLUMN) {
                    return null;
                }
                ticks.add(Long.parseLong(fields[STEAL_COLUMN]));
            }
        }
        return ticks.isEmpty() ? null : ticks.stream().mapToLong(Long::longValue).toArray();
    }

    /** Notes the vCPUs' steal counters as read at {@code nanos}. */
    synchronized void sample(long nanos, long[] ticks) {
        if (lastTicks != null && lastTicks.length == ticks.length) {
            long added = 0;
            long most = 0;
            for (int cpu = 0; cpu < ticks.length; cpu++) {
                long onCpu = Math.max(0, ticks[cpu] - lastTicks[cpu]);
                added += onCpu;
                most = Math.max(most, onCpu);
            }
            if (added > 0) {
                stolen.add(new Interval(lastNanos, nanos, added, most));
            }
        }
        lastNanos = nanos;
        lastTicks = ticks;
    }

    /** Whether the steal counters could be read at all. */
    synchronized boolean measured() {
        return lastTicks != null;
    }

    /** The CPU time the host took, summed over the vCPUs. */
    synchronized double stolenMillis() {
        long ticks = 0;
        for (Interval i : stolen) {
            ticks += i.ticks();
        }
        return ticks * MILLIS_PER_TICK;
    }

    /** The most steal counted on one vCPU between two samples: the longest single take, to a tick. */
    synchronized double longestStealMillis() {
        long most = 0;
        for (Interval i : stolen) {
            most = Math.max(most, i.mostOnOneCpu());
        }
        return most * MILLIS_PER_TICK;
    }

    /**
     * Whether a message sent at {@code sentNanos} and received at {@code receivedNanos} was near a
     * steal: one ended between {@link #BEFORE_SEND_NANOS} before the send and
     * {@link #AFTER_RECEIPT_NANOS} after the receipt.
     */
    synchronized boolean near(long sentNanos, long receivedNanos) {
        long from = sentNanos - BEFORE_SEND_NANOS;
        long to = receivedNanos + AFTER_RECEIPT_NANOS;
        // The intervals follow one another in time: find the first that ends at or after from.
        int low = 0;
        int high = stolen.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (stolen.get(mid).toNanos() < from) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low < stolen.size() && stolen.get(low).fromNanos() <= to;
    }

    synchronized List<Interval> intervals() {
        return List.copyOf(stolen);
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        meter.join(1_000);
        long[] ticks = read();
        if (ticks != null) {
            sample(System.nanoTime(), ticks);
        }
    }
}
