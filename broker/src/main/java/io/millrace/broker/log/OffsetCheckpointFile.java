package io.millrace.broker.log;

import io.millrace.common.TopicPartition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A per-directory file of offsets by partition, in Kafka's text format, used for
 * {@code recovery-point-offset-checkpoint}:
 *
 * <pre>
 * 0              version
 * 2              number of lines that follow
 * events 0 1342  topic, partition, offset
 * events 1 977
 * </pre>
 *
 * <p>Durability: {@link #write} is atomic. The new content goes to {@code <name>.tmp}, which is
 * fsynced and then renamed over the old file (a rename is atomic), and the directory is fsynced
 * so the rename itself survives a crash. A reader sees the old file or the new one, never a mix.
 *
 * <p>Thread-safe: reads and writes of one instance are serialized.
 */
final class OffsetCheckpointFile {

    static final int VERSION = 0;
    private static final Logger LOG = LoggerFactory.getLogger(OffsetCheckpointFile.class);

    private final Path file;

    OffsetCheckpointFile(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    synchronized void write(Map<TopicPartition, Long> offsets) throws IOException {
        StringBuilder text = new StringBuilder().append(VERSION).append('\n').append(offsets.size()).append('\n');
        offsets.forEach((tp, offset) ->
            text.append(tp.topic()).append(' ').append(tp.partition()).append(' ').append(offset).append('\n'));
        IoUtils.writeAtomically(file, text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The offsets in the file; empty if there is no file. A file that does not parse is logged
     * and read as empty: it only bounds recovery, so losing it costs a longer recovery, not data.
     */
    synchronized Map<TopicPartition, Long> read() throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Map.of();
        }
        try {
            return parse(lines);
        } catch (IllegalArgumentException e) {
            LOG.warn("Ignoring malformed checkpoint {} ({}); the logs of its directory will be recovered in full",
                file, e.getMessage());
            return Map.of();
        }
    }

    private static Map<TopicPartition, Long> parse(List<String> lines) {
        if (lines.size() < 2 || Integer.parseInt(lines.get(0).trim()) != VERSION) {
            throw new IllegalArgumentException("expected version " + VERSION + " and a count");
        }
        int count = Integer.parseInt(lines.get(1).trim());
        if (lines.size() != count + 2) {
            throw new IllegalArgumentException("expected " + count + " entries but found " + (lines.size() - 2));
        }
        Map<TopicPartition, Long> offsets = new HashMap<>();
        for (String line : lines.subList(2, lines.size())) {
            String[] fields = line.trim().split(" ");
            if (fields.length != 3) {
                throw new IllegalArgumentException("bad line '" + line + "'");
            }
            offsets.put(new TopicPartition(fields[0], Integer.parseInt(fields[1])), Long.parseLong(fields[2]));
        }
        return offsets;
    }
}
