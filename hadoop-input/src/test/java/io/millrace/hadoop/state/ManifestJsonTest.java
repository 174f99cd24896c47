package io.millrace.hadoop.state;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.millrace.hadoop.input.LostRange;
import io.millrace.hadoop.input.PartitionRange;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Manifests written before the loader counted for the audit still read, their lost ranges too; the audit counts and
 * the lost ranges, which the audit publishes under ids made from them, survive a round trip.
 */
public class ManifestJsonTest {

    /** A manifest as loaders wrote them before the audit: no auditWindows field. */
    private static final String BEFORE_THE_AUDIT = """
        {
          "sequence" : 3,
          "runId" : "0000000003-20240131T100000Z-1a2b3",
          "committedAtMs" : 1706695200000,
          "offsets" : [ { "topic" : "views", "partition" : 0, "offset" : 40, "topicId" : null } ],
          "ranges" : [ { "topic" : "views", "partition" : 0, "start" : 20, "end" : 40, "lost" : 5 } ],
          "lost" : [ { "topic" : "views", "partition" : 0, "from" : 15, "to" : 20 } ],
          "files" : [ ],
          "counts" : [ { "topic" : "views", "hour" : "2024-01-31T10", "records" : 20 } ],
          "lateHours" : [ ],
          "records" : 20,
          "errors" : 0,
          "restartedTopics" : [ ]
        }
        """;

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    @Test
    public void aManifestFromBeforeTheAuditReadsWithoutAuditCounts() throws Exception {
        java.nio.file.Path file = temp.getRoot().toPath().resolve("0000000003.json");
        Files.writeString(file, BEFORE_THE_AUDIT, StandardCharsets.UTF_8);
        Manifest manifest = JsonFiles.read(FileSystem.getLocal(new Configuration()), new Path(file.toUri()), Manifest.class);
        assertEquals(3, manifest.sequence());
        assertEquals(List.of(new PartitionRange("views", 0, 20, 40, 5)), manifest.ranges());
        assertEquals(List.of(new LostRange("views", 0, 15, 20)), manifest.lost());
        assertEquals(List.of(new HourCount("views", "2024-01-31T10", 20)), manifest.counts());
        assertNull("auditing was off: nothing to publish", manifest.auditWindows());
    }

    @Test
    public void theAuditCountsAndLostRangesOfAManifestSurviveWritingAndReading() throws Exception {
        List<WindowCount> windows = List.of(new WindowCount("views", 0, 600_000, 19, 1_900, 1, 2, 10, 20, 30));
        List<LostRange> lost = List.of(new LostRange("views", 0, 100, 150), new LostRange("views", 1, 7, 8));
        Manifest written = new Manifest(4, "run", 5L, List.of(), List.of(), lost, List.of(), List.of(), List.of(), 19, 2,
            List.of(), windows);
        FileSystem fs = FileSystem.getLocal(new Configuration());
        Path file = new Path(temp.getRoot().toURI().toString(), "0000000004.json");
        JsonFiles.write(fs, file, written);
        assertEquals(written, JsonFiles.read(fs, file, Manifest.class));
        Manifest read = JsonFiles.read(fs, file, Manifest.class);
        assertEquals(windows, read.auditWindows());
        assertEquals(lost, read.lost());
    }
}
