package io.millrace.bench.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Where the storage benchmarks put their files, and the I/O loops they share. Every file lives
 * under {@value #DIR_PROPERTY} (default {@code java.io.tmpdir}), so the log and the raw file
 * compare on the same filesystem.
 */
final class BenchFiles {

    /** The directory under which each benchmark state makes its own temporary directory. */
    static final String DIR_PROPERTY = "millrace.bench.dir";

    private BenchFiles() {
    }

    static Path newDir(String prefix) {
        try {
            Path base = Path.of(System.getProperty(DIR_PROPERTY, System.getProperty("java.io.tmpdir")));
            Files.createDirectories(base);
            return Files.createTempDirectory(base, prefix);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes a directory tree; deleting a file whose pages are still dirty discards them unwritten. */
    static void delete(Path root) throws IOException {
        if (root == null || !Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }

    /** Fills {@code buffer} from {@code position}; hot path: no allocation. */
    static int readFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        int start = buffer.position();
        long at = position;
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer, at);
            if (read < 0) {
                throw new IOException("End of file at position " + at);
            }
            at += read;
        }
        return buffer.position() - start;
    }

    /** Writes all of {@code buffer} at {@code position}, as the log's segment files do; hot path: no allocation. */
    static int writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        int start = buffer.position();
        long at = position;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
        return buffer.position() - start;
    }
}
