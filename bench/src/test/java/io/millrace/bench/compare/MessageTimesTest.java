package io.millrace.bench.compare;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class MessageTimesTest {

    @Test
    public void splitsEachLatencyAtItsAcknowledgement() throws Exception {
        MessageTimes times = new MessageTimes(2);
        times.sent(0);
        times.sent(1);
        Thread.sleep(20);
        times.acknowledged(0);
        times.acknowledged(1);
        long acknowledged = System.nanoTime();
        times.received(0, acknowledged + 50_000_000);
        times.received(1, acknowledged + 10_000_000);
        long[] total = times.endToEnd();
        long[] produce = times.sendToAcknowledged();
        long[] fetch = times.acknowledgedToReceived();
        assertTrue("sorted", total[0] < total[1]);
        assertTrue("the 20 ms before the acknowledgements", produce[0] >= 20_000_000 && produce[1] < 40_000_000);
        assertTrue("message 1's 10 ms after it, first", fetch[0] >= 10_000_000 && fetch[0] < 11_000_000);
        assertTrue("message 0's 50 ms after it", fetch[1] >= 50_000_000 && fetch[1] < 51_000_000);
        assertEquals("the fetch path makes the difference", fetch[1] - fetch[0], total[1] - total[0], 1_000_000);
    }

    @Test
    public void leavesOutTheMessagesASpanPicks() {
        MessageTimes times = new MessageTimes(3);
        for (int i = 0; i < 3; i++) {
            times.sent(i);
        }
        long now = System.nanoTime();
        times.received(0, now + 30_000_000);
        times.received(1, now + 10_000_000);
        times.received(2, now + 20_000_000);
        long[] kept = times.endToEndExcept((sent, received) -> received - sent > 25_000_000);
        assertEquals("the 30 ms message left out", 2, kept.length);
        assertTrue("sorted, 10 then 20 ms", kept[0] < kept[1] && kept[1] < 25_000_000 && kept[0] >= 10_000_000);
        assertEquals("none picked", 3, times.endToEndExcept((sent, received) -> false).length);
    }
}
