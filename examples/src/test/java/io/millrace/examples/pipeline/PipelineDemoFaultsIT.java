package io.millrace.examples.pipeline;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * {@code bin/millrace demo --faults}: a live broker restarted, the mirror killed with SIGKILL and started
 * again, a segment it had not copied deleted in dc1, a map task failed. The report names exactly the
 * deleted segment's records: missing from the mirror's read of dc1 on (tiers live and offline of dc1, then
 * hadoop), one lost range at tier live, nothing missing in dc2's tiers, nothing counted twice; status 1.
 */
public class PipelineDemoFaultsIT {

    private static final long EVENTS_PER_DC = 3_000;
    /** A row of the report's table: topic, window, tier, cluster, produced, counted, missing, %, status. */
    private static final Pattern ROW = Pattern.compile(
        "^(\\S+)\\s+(\\d{4}-\\S+)\\s+(\\S+)\\s+(\\S+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+([\\d,]+)\\s+\\S+%\\s+(\\S+)$",
        Pattern.MULTILINE);
    private static final Pattern LOST = Pattern.compile("^LOST at (\\S+): (\\S+)-(\\d+) offsets (\\d+) to (\\d+) \\(([\\d,]+) records\\)$",
        Pattern.MULTILINE);

    @Rule
    public final TemporaryFolder dir = new TemporaryFolder();

    @Test(timeout = 300_000)
    public void theReportNamesExactlyTheRecordsOfTheDeletedSegmentAsLostWhereTheyWereLost() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        PipelineDemo demo = new PipelineDemo(EVENTS_PER_DC, dir.getRoot().toPath(),
            new PrintStream(printed, true, StandardCharsets.UTF_8)).withFaults();
        PipelineDemo.Outcome outcome;
        try {
            outcome = demo.run();
        } finally {
            System.out.print(printed.toString(StandardCharsets.UTF_8));   // in the failsafe report, for a failure
        }
        String output = printed.toString(StandardCharsets.UTF_8);
        SegmentDeletion.Deleted lost = demo.faults().lost();

        assertEquals(output, 2 * EVENTS_PER_DC, outcome.acknowledged());
        assertTrue(output, lost.records() > 0);
        assertEquals(output, 1, outcome.status());
        assertEquals("everything but the deleted segment is loaded, once", outcome.acknowledged() - lost.records(),
            outcome.loaded());
        for (String fault : new String[] {"FAULT: restarted broker", "FAULT: kill -9 of the mirror maker",
            "FAULT: deleted the segments of dc1", "FAULT: map task 0 of the load failed"}) {
            assertTrue("printed " + fault, output.contains(fault));
        }

        Map<String, Long> missing = new TreeMap<>();
        Matcher row = ROW.matcher(outcome.report());
        int rows = 0;
        while (row.find()) {
            rows++;
            assertFalse("nothing counted twice: " + row.group(), row.group(8).equals("OVER"));
            long rowMissing = Long.parseLong(row.group(7).replace(",", ""));
            if (rowMissing > 0) {
                assertEquals("only the deleted segment's topic: " + row.group(), lost.partition().topic(), row.group(1));
                missing.merge(row.group(3) + "/" + row.group(4), rowMissing, Long::sum);
            }
        }
        assertTrue(outcome.report(), rows > 0);
        assertEquals("missing from the mirror's read of dc1 on, per tier, the deleted segment's records",
            Map.of("live/dc1", lost.records(), "offline/dc1", lost.records(), "hadoop/offline", lost.records()), missing);

        Matcher range = LOST.matcher(outcome.report());
        assertTrue(outcome.report(), range.find());
        assertEquals("lost where they were lost: the mirror's read of dc1", "live/dc1", range.group(1));
        assertEquals(lost.partition().topic(), range.group(2));
        assertEquals(lost.partition().partition(), Integer.parseInt(range.group(3)));
        assertEquals(lost.from(), Long.parseLong(range.group(4)));
        assertEquals(lost.to() - 1, Long.parseLong(range.group(5)));
        assertEquals(lost.records(), Long.parseLong(range.group(6).replace(",", "")));
        assertFalse("one lost range: " + outcome.report(), range.find());
    }
}
