package io.millrace.broker.network;

import java.util.concurrent.atomic.LongAdder;

/** A monotonically increasing count. Thread-safe; {@link #add} does not allocate. */
public final class Counter {

    private final LongAdder count = new LongAdder();

    public void increment() {
        count.increment();
    }

    public void add(long n) {
        count.add(n);
    }

    public long count() {
        return count.sum();
    }
}
