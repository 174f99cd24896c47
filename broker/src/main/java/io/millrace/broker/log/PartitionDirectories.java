package io.millrace.broker.log;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The partition directories of one log directory. A deleted partition's directory is first renamed
 * ({@link LogFileNames#deletedPartitionDirName}) and removed afterwards; one still there when the
 * directory loads (the broker stopped in between) is removed then. Stateless, thread-safe.
 */
final class PartitionDirectories {

    private static final Logger LOG = LoggerFactory.getLogger(PartitionDirectories.class);

    private PartitionDirectories() {
    }

    /** The partition directories of {@code logDir} that hold a live partition; removes those of deleted ones. */
    static List<Path> live(Path logDir) throws IOException {
        List<Path> partitionDirs = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(logDir, Files::isDirectory)) {
            for (Path entry : entries) {
                if (LogFileNames.isDeletedPartitionDir(entry)) {
                    remove(entry);
                } else {
                    partitionDirs.add(entry);
                }
            }
        }
        return partitionDirs;
    }

    /**
     * Removes {@code root} and everything below it. A failure is logged, not thrown: the directory is
     * already renamed out of the log's way, and the next load tries again.
     */
    static void remove(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            LOG.warn("Could not remove {}", root, e);
        }
    }
}
