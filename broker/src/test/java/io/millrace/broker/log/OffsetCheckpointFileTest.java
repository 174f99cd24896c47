package io.millrace.broker.log;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class OffsetCheckpointFileTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private OffsetCheckpointFile checkpoint() {
        return new OffsetCheckpointFile(temp.getRoot().toPath().resolve(LogFileNames.RECOVERY_POINT_CHECKPOINT));
    }

    @Test
    public void writesKafkasTextFormatAndReadsItBack() throws IOException {
        OffsetCheckpointFile file = checkpoint();
        Map<TopicPartition, Long> offsets = new TreeMap<>(java.util.Comparator.comparing(TopicPartition::toString));
        offsets.put(new TopicPartition("page-views", 0), 1342L);
        offsets.put(new TopicPartition("page-views", 1), 977L);
        file.write(offsets);

        assertEquals("0\n2\npage-views 0 1342\npage-views 1 977\n",
            Files.readString(file.file(), StandardCharsets.UTF_8));
        assertEquals(offsets, file.read());
        assertFalse("no temporary file left", Files.exists(file.file().resolveSibling(file.file().getFileName() + ".tmp")));
    }

    @Test
    public void aMissingFileReadsAsEmpty() throws IOException {
        assertEquals(Map.of(), checkpoint().read());
    }

    @Test
    public void aMalformedFileReadsAsEmptySoTheLogsAreRecoveredInFull() throws IOException {
        OffsetCheckpointFile file = checkpoint();
        for (String text : new String[] {"0\n2\nt 0 5\n", "1\n0\n", "0\n1\nt zero 5\n", "garbage"}) {
            Files.writeString(file.file(), text);
            assertEquals(text, Map.of(), file.read());
        }
    }

    @Test
    public void aRewriteReplacesTheWholeFile() throws IOException {
        OffsetCheckpointFile file = checkpoint();
        file.write(Map.of(new TopicPartition("a", 0), 1L, new TopicPartition("b", 0), 2L));
        file.write(Map.of(new TopicPartition("a", 0), 10L));
        assertEquals(Map.of(new TopicPartition("a", 0), 10L), file.read());
    }

    @Test
    public void checkpointPathsLiveInTheLogDirectory() {
        Path path = checkpoint().file();
        assertEquals("recovery-point-offset-checkpoint", path.getFileName().toString());
    }
}
