package io.millrace.producer.internals;

import io.millrace.common.errors.TimeoutException;
import io.millrace.common.utils.Time;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The producer's bounded batch memory ({@code buffer.memory}). Buffers of exactly the poolable size
 * ({@code batch.size}) are kept and reused once their batch is acknowledged, so a steady producer
 * allocates none; other sizes are allocated and left to the garbage collector, but count against
 * the same total while in use.
 *
 * <p>A caller that finds the memory used up waits, first come first served, until enough is
 * returned or its time is up. Thread-safe.
 */
public final class BufferPool {

    private final long totalMemory;
    private final int poolableSize;
    private final Time time;
    private final ReentrantLock lock = new ReentrantLock();
    private final Deque<ByteBuffer> free = new ArrayDeque<>();
    private final Deque<Condition> waiters = new ArrayDeque<>();
    private final LongAdder waitTimeNanos = new LongAdder();
    // memory neither in use nor in the free list
    private long unpooledAvailable;
    private boolean closed;

    public BufferPool(long totalMemory, int poolableSize, Time time) {
        this.totalMemory = totalMemory;
        this.poolableSize = poolableSize;
        this.time = time;
        this.unpooledAvailable = totalMemory;
    }

    /**
     * A cleared buffer of {@code size} bytes, waiting up to {@code maxBlockMs} for memory.
     *
     * @throws TimeoutException when the memory did not become available in time
     * @throws IllegalArgumentException when {@code size} exceeds the whole pool
     */
    public ByteBuffer allocate(int size, long maxBlockMs) throws InterruptedException {
        if (size > totalMemory) {
            throw new IllegalArgumentException("Cannot allocate " + size + " bytes from a pool of " + totalMemory);
        }
        lock.lock();
        try {
            ensureOpen();
            if (size == poolableSize && !free.isEmpty()) {
                return free.pollFirst();
            }
            if (waiters.isEmpty() && freeUpTo(size)) {
                return takeUnpooled(size);
            }
            return awaitMemory(size, maxBlockMs);
        } finally {
            signalNextWaiterIfMemoryLeft();
            lock.unlock();
        }
    }

    /** Called with the lock held: waits in line until {@code size} bytes are free. */
    private ByteBuffer awaitMemory(int size, long maxBlockMs) throws InterruptedException {
        Condition turn = lock.newCondition();
        waiters.addLast(turn);
        long remainingNs = TimeUnit.MILLISECONDS.toNanos(maxBlockMs);
        try {
            while (true) {
                if (waiters.peekFirst() == turn) {
                    if (size == poolableSize && !free.isEmpty()) {
                        return free.pollFirst();
                    }
                    if (freeUpTo(size)) {
                        return takeUnpooled(size);
                    }
                }
                if (remainingNs <= 0) {
                    throw new TimeoutException("Failed to allocate " + size + " bytes of buffer memory within max.block.ms ("
                        + maxBlockMs + " ms): all " + totalMemory + " bytes of buffer.memory are in batches not yet "
                        + "acknowledged (" + availableMemoryLocked() + " bytes free)");
                }
                long startNs = time.nanoseconds();
                remainingNs = turn.awaitNanos(remainingNs);
                waitTimeNanos.add(time.nanoseconds() - startNs);
                ensureOpen();
            }
        } finally {
            waiters.remove(turn);
        }
    }

    private ByteBuffer takeUnpooled(int size) {
        unpooledAvailable -= size;
        return ByteBuffer.allocate(size);
    }

    /** Releases free-list buffers until {@code size} unpooled bytes are available; false if impossible. */
    private boolean freeUpTo(int size) {
        if (unpooledAvailable + (long) free.size() * poolableSize < size) {
            return false;
        }
        while (unpooledAvailable < size) {
            unpooledAvailable += free.pollLast().capacity();
        }
        return true;
    }

    private void signalNextWaiterIfMemoryLeft() {
        if (!waiters.isEmpty() && availableMemoryLocked() > 0) {
            waiters.peekFirst().signal();
        }
    }

    /** Returns a buffer from {@link #allocate}: kept for reuse if of the poolable size. */
    public void deallocate(ByteBuffer buffer) {
        lock.lock();
        try {
            if (buffer.capacity() == poolableSize) {
                buffer.clear();
                free.addFirst(buffer);
            } else {
                unpooledAvailable += buffer.capacity();
            }
            if (!waiters.isEmpty()) {
                waiters.peekFirst().signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gives back the memory of a buffer from {@link #allocate} without keeping the buffer: for a batch
     * that failed while a request carrying it may still be on its way out, whose bytes the network
     * layer sends as they are and so must not be overwritten by a new batch.
     */
    public void release(ByteBuffer buffer) {
        lock.lock();
        try {
            unpooledAvailable += buffer.capacity();
            if (!waiters.isEmpty()) {
                waiters.peekFirst().signal();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Wakes every waiter, which then fails: the producer is closing. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            waiters.forEach(Condition::signal);
        } finally {
            lock.unlock();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("The producer is closed: no more buffer memory is handed out");
        }
    }

    /** Bytes that could be allocated now: the free list plus memory never handed out. */
    public long availableMemory() {
        lock.lock();
        try {
            return availableMemoryLocked();
        } finally {
            lock.unlock();
        }
    }

    private long availableMemoryLocked() {
        return unpooledAvailable + (long) free.size() * poolableSize;
    }

    /** How many threads are waiting for memory: the accumulator sends batches at once while any do. */
    public int queued() {
        lock.lock();
        try {
            return waiters.size();
        } finally {
            lock.unlock();
        }
    }

    /** Total nanoseconds threads have waited for memory. */
    public long waitTimeNanosTotal() {
        return waitTimeNanos.sum();
    }

    public int poolableSize() {
        return poolableSize;
    }

    public long totalMemory() {
        return totalMemory;
    }
}
