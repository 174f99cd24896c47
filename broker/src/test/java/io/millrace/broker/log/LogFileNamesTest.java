package io.millrace.broker.log;

import io.millrace.common.TopicPartition;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.Test;

public class LogFileNamesTest {

    private final Path dir = Path.of("/data/events-0");

    @Test
    public void segmentFilesAreNamedByTheirTwentyDigitBaseOffset() {
        assertEquals("00000000000000000000", LogFileNames.filenamePrefix(0));
        assertEquals(dir.resolve("00000000000000368769.log"), LogFileNames.logFile(dir, 368769));
        assertEquals(dir.resolve("00000000000000368769.index"), LogFileNames.offsetIndexFile(dir, 368769));
        assertEquals(dir.resolve("00000000000000368769.timeindex"), LogFileNames.timeIndexFile(dir, 368769));
        assertEquals(dir.resolve("09223372036854775807.log"), LogFileNames.logFile(dir, Long.MAX_VALUE));
        assertEquals(dir.resolve("00000000000000000042.log.deleted"), LogFileNames.deletedFile(LogFileNames.logFile(dir, 42)));
    }

    @Test
    public void baseOffsetsParseOnlyFromWellFormedNames() {
        assertEquals(OptionalLong.of(42), LogFileNames.baseOffset(Path.of("00000000000000000042.log"), ".log"));
        assertEquals(OptionalLong.empty(), LogFileNames.baseOffset(Path.of("42.log"), ".log"));
        assertEquals(OptionalLong.empty(), LogFileNames.baseOffset(Path.of("00000000000000000042.log.deleted"), ".log"));
        assertEquals(OptionalLong.empty(), LogFileNames.baseOffset(Path.of("0000000000000000004x.index"), ".index"));
    }

    @Test
    public void leftoversAreRecognizedBySuffix() {
        for (String name : new String[] {"a.log.deleted", "a.index.cleaned", "a.log.swap", "checkpoint.tmp"}) {
            assertTrue(name, LogFileNames.isLeftover(Path.of(name)));
        }
        assertFalse(LogFileNames.isLeftover(Path.of("00000000000000000000.log")));
    }

    @Test
    public void partitionDirectoriesRoundTripEvenWithDashesInTheTopic() {
        TopicPartition tp = new TopicPartition("page-view.events_v2", 13);
        assertEquals("page-view.events_v2-13", LogFileNames.partitionDirName(tp));
        assertEquals(tp, LogFileNames.parsePartitionDirName("page-view.events_v2-13"));
        String deleted = LogFileNames.deletedPartitionDirName(tp);
        assertTrue(deleted, deleted.startsWith("page-view.events_v2-13.") && deleted.endsWith("-delete"));
        assertTrue(LogFileNames.isDeletedPartitionDir(Path.of(deleted)));
    }

    @Test
    public void malformedPartitionDirectoriesAndTopicsAreRejected() {
        for (String name : new String[] {"events", "events-", "-3", "events-x", "bad topic-0", "events-1.5"}) {
            assertThrows(name, IllegalArgumentException.class, () -> LogFileNames.parsePartitionDirName(name));
        }
        assertThrows(IllegalArgumentException.class, () -> LogFileNames.validateTopic("a".repeat(250)));
        LogFileNames.validateTopic("a".repeat(249));
    }
}
