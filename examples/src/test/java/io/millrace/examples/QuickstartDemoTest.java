package io.millrace.examples;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.examples.QuickstartDemo.Event;
import io.millrace.examples.QuickstartDemo.Result;
import io.millrace.common.record.CompressionType;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.Test;

/**
 * The README's front door: {@code bin/millrace demo} runs this, so CI proves that a fresh checkout
 * starts ZooKeeper and a broker and gets back every event it produced.
 */
public class QuickstartDemoTest {

    @Test(timeout = 60_000)
    public void everyProducedEventIsFetchedBackUnchanged() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        Result result = QuickstartDemo.run(new PrintStream(printed, true, StandardCharsets.UTF_8));

        int expected = CompressionType.values().length * QuickstartDemo.EVENTS_PER_CODEC;
        assertEquals(expected, result.produced().size());
        assertEquals(expected, result.consumed().size());
        assertEquals(result.produced(), result.consumed());
        assertTrue(result.allReadBack());
        for (Event e : result.consumed()) {
            assertEquals("application/json", e.contentType());
            assertTrue(e.value(), e.value().startsWith("{\"user\":\"" + e.key() + "\""));
        }
        assertTrue("events on every partition", result.consumed().stream().map(Event::partition).distinct().count()
            == QuickstartDemo.PARTITIONS);
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("Offsets (earliest..latest)"));
    }
}
