package io.millrace.examples.generator;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.Test;

/** A rate holds a run back: 500 events at 500 per second take about a second, not the few milliseconds they could. */
public class EventGeneratorRateTest {

    @Test(timeout = 60_000)
    public void fiveHundredEventsAtFiveHundredPerSecondTakeAboutASecond() throws Exception {
        try (LocalCluster cluster = LocalCluster.start();
             SchemaRegistryServer registry = SchemaRegistryServer.startLocal(cluster.zookeeperConnect())) {
            GeneratorOptions options = GeneratorOptions.builder(cluster.bootstrapServers(), registry.urls().get(0))
                .topics(List.of(EventTopic.PAGE_VIEWS)).events(500).ratePerSecond(500).audit(false).build();
            long startNanos = System.nanoTime();
            GenerationSummary summary = EventGenerator.run(options,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
            long elapsedMs = (System.nanoTime() - startNanos) / 1_000_000;

            assertEquals(new GenerationSummary.Counts(500, 500, 0), summary.total());
            // the last event is due 998 ms after the first; a loose bound, as the machine may be busy
            assertTrue("500 events at 500/s took " + elapsedMs + " ms", elapsedMs >= 800);
            assertTrue("the summary says " + summary.elapsedMs() + " ms", summary.elapsedMs() >= 800);
        }
    }
}
