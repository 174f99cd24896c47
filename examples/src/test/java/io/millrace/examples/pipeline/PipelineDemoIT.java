package io.millrace.examples.pipeline;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@code bin/millrace demo}, the README's front door, as it runs there: three data centres, audited
 * front-ends into both live ones, the mirror, the load and the report. Every event acknowledged is loaded
 * once, every tier reconciles, and the status is 0.
 */
public class PipelineDemoIT {

    private static final long EVENTS_PER_DC = 3_000;

    @Rule
    public final TemporaryFolder dir = new TemporaryFolder();

    @Test(timeout = 180_000)
    public void everyEventTheFrontEndsSentIsMirroredLoadedOnceAndReconciledAtEveryTier() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PipelineDemo.Outcome outcome = new PipelineDemo(EVENTS_PER_DC, dir.getRoot().toPath(),
            new PrintStream(printed, true, StandardCharsets.UTF_8)).run();
        String output = printed.toString(StandardCharsets.UTF_8);

        assertEquals(output, 2 * EVENTS_PER_DC, outcome.acknowledged());
        assertTrue("the events and the live audit records are offline: " + outcome.mirrored(),
            outcome.mirrored() > outcome.acknowledged());
        assertEquals("loaded once each", outcome.acknowledged(), outcome.loaded());
        assertEquals(outcome.loaded(), outcome.loadedPerTopic().values().stream().mapToLong(Long::longValue).sum());
        assertEquals(PipelineDemo.TOPICS.size(), outcome.loadedPerTopic().size());
        assertEquals(output, 0, outcome.status());
        for (String tier : new String[] {" live ", " offline ", " hadoop "}) {
            assertTrue("the report holds tier" + tier, outcome.report().contains(tier));
        }
        assertFalse(outcome.report(), outcome.report().contains("INCOMPLETE") || outcome.report().contains(" OVER"));
        assertTrue(Files.readString(dir.getRoot().toPath().resolve("audit-report.html")).contains("<svg"));
        assertTrue(output, output.contains("audit report: every closed window reconciled at every tier"));
    }
}
