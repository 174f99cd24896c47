package io.millrace.examples.generator;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.MockTime;
import org.junit.Test;

/** The pacer holds a sender to its rate on average, and lets a sender that fell behind catch up. */
public class PacerTest {

    @Test
    public void fiveHundredEventsAtFiveHundredPerSecondTakeASecond() {
        MockTime time = new MockTime();
        long start = time.milliseconds();
        Pacer pacer = new Pacer(500, time);
        for (int n = 0; n < 500; n++) {
            pacer.awaitTurn(n);
        }
        // the 500th event (n = 499) is due 998 ms after the start
        assertEquals(998, time.milliseconds() - start);
    }

    @Test
    public void aSenderThatFellBehindCatchesUpWithoutWaiting() {
        MockTime time = new MockTime();
        Pacer pacer = new Pacer(100, time);
        time.advance(1_000);   // a slow send: a second for nothing
        long before = time.milliseconds();
        for (int n = 0; n < 100; n++) {
            pacer.awaitTurn(n);
        }
        assertEquals(before, time.milliseconds());
        pacer.awaitTurn(150);
        assertEquals(before + 500, time.milliseconds());
    }

    @Test
    public void noRateNeverWaits() {
        MockTime time = new MockTime();
        long before = time.milliseconds();
        Pacer pacer = new Pacer(0, time);
        for (int n = 0; n < 10_000; n++) {
            pacer.awaitTurn(n);
        }
        assertTrue(time.milliseconds() == before);
    }
}
