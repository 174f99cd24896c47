package io.millrace.broker.log;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * Opens every file the log reads or writes ({@code .log}, {@code .index}, {@code .timeindex}).
 * Production uses {@link #DEFAULT}; tests substitute an opener whose channels fail on demand,
 * which is how a disk error is simulated without root-proof tricks such as unwritable
 * directories.
 */
@FunctionalInterface
public interface LogFileOpener {

    LogFileOpener DEFAULT = FileChannel::open;

    FileChannel open(Path path, OpenOption... options) throws IOException;
}
