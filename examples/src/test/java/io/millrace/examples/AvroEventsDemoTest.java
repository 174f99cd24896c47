package io.millrace.examples;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.examples.events.PageViewEvent;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.Test;

/** {@code bin/millrace avro-demo}: every page view comes back as the generated class, its header filled in. */
public class AvroEventsDemoTest {

    @Test(timeout = 60_000)
    public void everyEventComesBackWithItsHeaderFilledIn() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        List<PageViewEvent> read;
        try (LocalCluster cluster = LocalCluster.start()) {
            read = AvroEventsDemo.run(cluster, new PrintStream(printed, true, StandardCharsets.UTF_8));
        }
        assertEquals(AvroEventsDemo.EVENTS, read.size());
        for (int i = 0; i < read.size(); i++) {
            PageViewEvent view = read.get(i);
            assertEquals("/page/" + i, view.getUrl());
            assertEquals("frontend", view.getHeader().getService());
            assertNotNull(view.getHeader().getTime());
            assertNotNull(view.getHeader().getServer());
            assertEquals(36, view.getHeader().getId().length());
        }
        assertTrue(printed.toString(StandardCharsets.UTF_8).contains("read   {\"header\""));
    }
}
