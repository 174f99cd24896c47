package io.millrace.bench.compare;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * How the harness tells that a deleted topic's files are gone: a partition directory of the topic,
 * live or renamed for deletion, counts; another topic's, even one whose name starts with this one's,
 * does not.
 */
public class DeletedTopicFilesTest {

    @Rule
    public final TemporaryFolder tmp = new TemporaryFolder();

    @Test
    public void onlyTheTopicsOwnPartitionDirectoriesCount() throws Exception {
        Path logDir = tmp.newFolder("logs").toPath();
        Files.createDirectories(logDir.resolve("produce-tuned-millrace-10-0"));
        Files.createDirectories(logDir.resolve("produce-tuned-millrace-1-audited-0"));
        Files.createFile(logDir.resolve("produce-tuned-millrace-1-checkpoint"));
        assertFalse(Scenarios.hasFilesOf(logDir, "produce-tuned-millrace-1"));

        Path live = Files.createDirectories(logDir.resolve("produce-tuned-millrace-1-0"));
        assertTrue(Scenarios.hasFilesOf(logDir, "produce-tuned-millrace-1"));
        Files.move(live, logDir.resolve("produce-tuned-millrace-1-0.3f2a9c-delete"));
        assertTrue("renamed for deletion, not yet removed", Scenarios.hasFilesOf(logDir, "produce-tuned-millrace-1"));
    }
}
