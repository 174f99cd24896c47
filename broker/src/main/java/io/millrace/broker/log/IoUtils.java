package io.millrace.broker.log;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
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
}
