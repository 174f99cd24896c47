package io.millrace.bench.compare;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongSupplier;

/**
 * Records throughput over time during one run: how many records were acknowledged (or consumed)
 * in each fixed interval since {@link #start()}, for the paper's throughput-over-time figures.
 *
 * <p>{@link #add(long)} may be called from any thread. It costs one clock read and one atomic add
 * into the interval's slot of a fixed {@link AtomicLongArray}; there is no background sampling
 * thread, because the slot is derived from the elapsed time at the moment of the call. A fixed
 * array was chosen over a growable one so that the hot path never takes a lock nor allocates; over
 * {@code LongAdder} slots because the callers are a client's callback thread or a consumer's poll
 * loop, one or two threads, where striping would only add an indirection per call.
 *
 * <p>The array is sized for a maximum duration; records arriving later are counted in the last
 * slot, whose rate is then computed over the whole time it covered, so a run that overstays
 * still reports an honest (if coarser) tail rather than losing records or throwing.
 */
public final class ThroughputTimeline {

    /** The interval of the paper-style figures: fine enough to show stalls, coarse enough to be smooth. */
    public static final Duration DEFAULT_INTERVAL = Duration.ofMillis(100);
    /** Longer than any scenario of the comparison at scale 1. */
    public static final Duration DEFAULT_MAX_DURATION = Duration.ofMinutes(30);

    private static final long NOT_STARTED = Long.MIN_VALUE;

    private final long intervalNanos;
    private final AtomicLongArray counts;
    private final LongSupplier clock;
    private volatile long startNanos = NOT_STARTED;
    private volatile long stopNanos = NOT_STARTED;

    /** 100 ms intervals for up to 30 minutes. */
    public ThroughputTimeline() {
        this(DEFAULT_INTERVAL, DEFAULT_MAX_DURATION);
    }

    public ThroughputTimeline(Duration interval, Duration maxDuration) {
        this(interval.toNanos(), slots(interval, maxDuration), System::nanoTime);
    }

    /** With the clock (nanoseconds, as {@link System#nanoTime()}) given, for tests. */
    ThroughputTimeline(long intervalNanos, int slots, LongSupplier clock) {
        if (intervalNanos <= 0 || slots <= 0) {
            throw new IllegalArgumentException("interval and slots must be positive: " + intervalNanos + ", " + slots);
        }
        this.intervalNanos = intervalNanos;
        this.counts = new AtomicLongArray(slots);
        this.clock = clock;
    }

    private static int slots(Duration interval, Duration maxDuration) {
        long n = Math.max(1, -Math.floorDiv(-maxDuration.toNanos(), interval.toNanos()));
        return (int) Math.min(n, Integer.MAX_VALUE - 8);
    }

    /** Marks the beginning of the timed section; records added before it are not counted. */
    public void start() {
        stopNanos = NOT_STARTED;
        startNanos = clock.getAsLong();
    }

    /**
     * Marks the end of the timed section, so that the last interval's rate is computed over the
     * part of it that was timed. Without it, {@link #recordsPerSecond()} ends at the time of the call.
     */
    public void stop() {
        if (startNanos != NOT_STARTED) {
            stopNanos = clock.getAsLong();
        }
    }

    /** Counts {@code records} that completed now. Cheap enough to call once per record. */
    public void add(long records) {
        long start = startNanos;
        if (start == NOT_STARTED) {
            return;
        }
        long slot = (clock.getAsLong() - start) / intervalNanos;
        counts.getAndAdd(slotIndex(slot), records);
    }

    private int slotIndex(long slot) {
        // a clock read racing start() may land just before it: count it in the first slot
        return (int) Math.max(0, Math.min(slot, counts.length() - 1));
    }

    public long intervalMillis() {
        return Duration.ofNanos(intervalNanos).toMillis();
    }

    /**
     * Records per second in each interval from {@link #start()} to {@link #stop()} (or now), one
     * value per interval. The last interval's rate is over its timed part only, and a last part
     * shorter than half an interval is folded into the one before. Empty when not started.
     */
    public double[] recordsPerSecond() {
        long start = startNanos;
        if (start == NOT_STARTED) {
            return new double[0];
        }
        long stop = stopNanos != NOT_STARTED ? stopNanos : clock.getAsLong();
        long elapsed = Math.max(1, stop - start);
        int n = slotIndex((elapsed - 1) / intervalNanos) + 1;
        long tail = elapsed - (n - 1) * intervalNanos;
        // a sliver of an interval at the end would show a spike (a few records over microseconds):
        // fold it into the interval before
        boolean fold = n > 1 && tail < intervalNanos / 2;
        int values = fold ? n - 1 : n;
        double[] rates = new double[values];
        for (int i = 0; i < values; i++) {
            long records = counts.get(i);
            long nanos = intervalNanos;
            if (i == values - 1) {
                nanos = elapsed - i * intervalNanos;
                records += fold ? counts.get(n - 1) : 0;
            }
            rates[i] = records * 1e9 / nanos;
        }
        return rates;
    }

    /** All records counted so far. */
    public long total() {
        long sum = 0;
        for (int i = 0; i < counts.length(); i++) {
            sum += counts.get(i);
        }
        return sum;
    }
}
