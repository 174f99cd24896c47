package io.millrace.common.client;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotSame;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.nio.ByteBuffer;
import org.junit.Test;

/** Pooled response buffers: reused once given back, never kept when too large or too many. */
public class ResponseBufferPoolTest {

    @Test
    public void aBufferGivenBackIsLentAgainLimitedToTheNewSize() {
        ResponseBufferPool pool = new ResponseBufferPool(2);
        ByteBuffer first = pool.take(1_000);
        assertTrue(first.isDirect());
        assertEquals(0, first.position());
        assertEquals(1_000, first.limit());
        assertEquals("rounded up so that nearby sizes share it", ResponseBufferPool.UNIT_BYTES, first.capacity());
        first.position(500);
        pool.giveBack(first);
        ByteBuffer second = pool.take(2_000);
        assertSame(first, second);
        assertEquals(0, second.position());
        assertEquals(2_000, second.limit());
    }

    @Test
    public void aBufferTooSmallForTheNextResponseIsDroppedNotLent() {
        ResponseBufferPool pool = new ResponseBufferPool(2);
        ByteBuffer small = pool.take(10);
        pool.giveBack(small);
        ByteBuffer large = pool.take(ResponseBufferPool.UNIT_BYTES + 1);
        assertNotSame(small, large);
        assertEquals(2 * ResponseBufferPool.UNIT_BYTES, large.capacity());
        assertEquals(0, pool.idleBuffers());
    }

    @Test
    public void thePoolKeepsAtMostItsSizeAndNothingHuge() {
        ResponseBufferPool pool = new ResponseBufferPool(2);
        for (int i = 0; i < 3; i++) {
            pool.giveBack(ByteBuffer.allocateDirect(16));
        }
        assertEquals(2, pool.idleBuffers());
        ResponseBufferPool other = new ResponseBufferPool(2);
        other.giveBack(ByteBuffer.allocateDirect(ResponseBufferPool.MAX_KEPT_BYTES + 1));
        assertEquals(0, other.idleBuffers());
    }

    @Test
    public void aLeaseGivesItsBufferBackOnceAndHoldsOneResponse() {
        ResponseBufferPool pool = new ResponseBufferPool(2);
        ResponseLease lease = new ResponseLease(pool);
        lease.release(); // nothing read into it yet
        assertEquals(0, pool.idleBuffers());
        lease.allocate(100);
        try {
            lease.allocate(100);
            throw new AssertionError("a second response into one lease");
        } catch (IllegalStateException expected) {
            // one lease, one response
        }
        lease.release();
        lease.release();
        assertEquals(1, pool.idleBuffers());
    }

    @Test(expected = IllegalArgumentException.class)
    public void aPoolKeepsAtLeastOneBuffer() {
        new ResponseBufferPool(0);
    }
}
