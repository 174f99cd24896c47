package io.millrace.broker.log;

import io.millrace.broker.log.LeaderEpochCache.EpochEntry;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * A partition's {@code leader-epoch-checkpoint}, in Kafka's text format: a version line, a count
 * line, then one "epoch startOffset" line per leader epoch, ascending.
 *
 * <pre>
 * 0          version
 * 2          number of lines that follow
 * 0 0        epoch 0 starts at offset 0
 * 3 1200     epoch 3 starts at offset 1200
 * </pre>
 *
 * <p>Durability: {@link #write} replaces the file atomically ({@link IoUtils#writeAtomically}).
 * Not thread-safe: its {@link LeaderEpochCache} serializes the calls.
 */
final class LeaderEpochCheckpointFile {

    static final int VERSION = 0;

    private final Path file;

    LeaderEpochCheckpointFile(Path partitionDir) {
        this.file = partitionDir.resolve(LogFileNames.LEADER_EPOCH_CHECKPOINT);
    }

    Path file() {
        return file;
    }

    void write(Collection<EpochEntry> entries) throws IOException {
        StringBuilder text = new StringBuilder().append(VERSION).append('\n').append(entries.size()).append('\n');
        for (EpochEntry entry : entries) {
            text.append(entry.epoch()).append(' ').append(entry.startOffset()).append('\n');
        }
        IoUtils.writeAtomically(file, text.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The entries in the file, or empty when there is no file.
     *
     * @throws IllegalArgumentException the file does not parse, or its entries do not both increase
     */
    Optional<List<EpochEntry>> read() throws IOException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        return Optional.of(parse(lines));
    }

    private static List<EpochEntry> parse(List<String> lines) {
        if (lines.size() < 2 || Integer.parseInt(lines.get(0).trim()) != VERSION) {
            throw new IllegalArgumentException("expected version " + VERSION + " and a count");
        }
        int count = Integer.parseInt(lines.get(1).trim());
        if (lines.size() != count + 2) {
            throw new IllegalArgumentException("expected " + count + " entries but found " + (lines.size() - 2));
        }
        List<EpochEntry> entries = new ArrayList<>(count);
        for (String line : lines.subList(2, lines.size())) {
            String[] fields = line.trim().split(" ");
            if (fields.length != 2) {
                throw new IllegalArgumentException("bad line '" + line + "'");
            }
            EpochEntry entry = new EpochEntry(Integer.parseInt(fields[0]), Long.parseLong(fields[1]));
            EpochEntry previous = entries.isEmpty() ? null : entries.get(entries.size() - 1);
            if (entry.epoch() < 0 || entry.startOffset() < 0
                || (previous != null && (entry.epoch() <= previous.epoch() || entry.startOffset() < previous.startOffset()))) {
                throw new IllegalArgumentException("entry '" + line + "' does not follow " + previous);
            }
            entries.add(entry);
        }
        return entries;
    }
}
