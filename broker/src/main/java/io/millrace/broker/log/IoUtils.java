package io.millrace.broker.log;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/** Small file-system helpers the log needs and the JDK lacks. Stateless, thread-safe. */
final class IoUtils {

    private IoUtils() {
    }

    /** Fills {@code buffer} from {@code position}; an end of file before it is full is an {@link EOFException}. */
    static void readFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            int read = channel.read(buffer, at);
            if (read < 0) {
                throw new EOFException("End of file at position " + at + " with " + buffer.remaining() + " bytes still to read");
            }
            at += read;
        }
    }

    /** Writes all of {@code buffer} at {@code position}; a positional write may be partial, so loop. */
    static void writeFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
    }

    /**
     * Fsyncs a directory, which makes the creation, deletion or renaming of its entries durable
     * (an fsync of the file alone does not). Linux and macOS allow opening a directory for this.
     */
    static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    /**
     * Replaces {@code file} with {@code content} so that a crash leaves the old file or the new one,
     * never a mix: the content goes to {@code <name>.tmp}, which is fsynced and renamed over the
     * file (an atomic rename), and the directory is fsynced so that the rename survives too. A
     * leftover {@code .tmp} is removed when the log directory loads.
     */
    static void writeAtomically(Path file, byte[] content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + LogFileNames.TMP_SUFFIX);
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            writeFully(channel, ByteBuffer.wrap(content), 0);
            channel.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        fsyncDirectory(file.getParent());
    }
}
