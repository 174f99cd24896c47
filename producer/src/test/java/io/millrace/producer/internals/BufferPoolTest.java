package io.millrace.producer.internals;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.common.errors.TimeoutException;
import io.millrace.common.utils.Time;
import io.millrace.testkit.Conditions;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.junit.Test;

public class BufferPoolTest {

    @Test
    public void poolableBuffersAreReusedAndOthersCountAgainstTheTotal() throws Exception {
        BufferPool pool = new BufferPool(1024, 256, Time.SYSTEM);
        ByteBuffer first = pool.allocate(256, 0);
        ByteBuffer big = pool.allocate(500, 0);
        assertEquals(1024 - 756, pool.availableMemory());
        pool.deallocate(first);
        pool.deallocate(big);
        assertEquals(1024, pool.availableMemory());
        assertSame("the freed batch buffer is handed out again", first, pool.allocate(256, 0));
        assertNotSame(big, pool.allocate(500, 0));
    }

    @Test
    public void aReleasedBufferGivesBackItsMemoryButIsNeverHandedOutAgain() throws Exception {
        BufferPool pool = new BufferPool(512, 256, Time.SYSTEM);
        ByteBuffer sending = pool.allocate(256, 0);
        ByteBuffer other = pool.allocate(256, 0);
        assertEquals(0, pool.availableMemory());
        pool.release(sending);
        assertEquals(256, pool.availableMemory());
        ByteBuffer next = pool.allocate(256, 0);
        assertNotSame("a request may still be writing the released buffer's bytes", sending, next);
        assertNotSame(other, next);
        pool.deallocate(next);
        assertSame(next, pool.allocate(256, 0));
    }

    @Test
    public void allocationBlocksUntilMemoryIsReturned() throws Exception {
        BufferPool pool = new BufferPool(512, 256, Time.SYSTEM);
        ByteBuffer a = pool.allocate(256, 0);
        pool.allocate(256, 0);
        CompletableFuture<ByteBuffer> waiting = CompletableFuture.supplyAsync(() -> allocate(pool, 256, 10_000));
        Conditions.waitUntil(() -> pool.queued() == 1, "the allocation waits for memory");
        assertTrue(!waiting.isDone());
        pool.deallocate(a);
        assertSame(a, waiting.get());
        assertTrue(pool.waitTimeNanosTotal() > 0);
    }

    @Test
    public void allocationFailsWithATimeoutWhenNothingIsReturned() throws Exception {
        BufferPool pool = new BufferPool(512, 256, Time.SYSTEM);
        pool.allocate(512, 0);
        long start = System.nanoTime();
        try {
            pool.allocate(256, 200);
            fail("expected a timeout");
        } catch (TimeoutException e) {
            long waitedMs = (System.nanoTime() - start) / 1_000_000;
            assertTrue("waited " + waitedMs + " ms", waitedMs >= 190);
            assertTrue(e.getMessage(), e.getMessage().contains("max.block.ms"));
        }
        assertEquals(0, pool.queued());
    }

    @Test
    public void closingWakesWaiters() throws Exception {
        BufferPool pool = new BufferPool(256, 256, Time.SYSTEM);
        pool.allocate(256, 0);
        CompletableFuture<ByteBuffer> waiting = CompletableFuture.supplyAsync(() -> allocate(pool, 256, 60_000));
        Conditions.waitUntil(() -> pool.queued() == 1, "the allocation waits for memory");
        pool.close();
        try {
            waiting.join();
            fail("expected the waiter to fail");
        } catch (java.util.concurrent.CompletionException e) {
            assertTrue(e.getCause() instanceof IllegalStateException);
        }
    }

    private static ByteBuffer allocate(BufferPool pool, int size, long maxBlockMs) {
        try {
            return pool.allocate(size, maxBlockMs);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
