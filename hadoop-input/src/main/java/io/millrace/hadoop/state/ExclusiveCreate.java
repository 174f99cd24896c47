package io.millrace.hadoop.state;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;

/**
 * Putting a file in place under a name only if nobody has that name yet, atomically on every file
 * system the loader supports. HDFS's rename without overwrite is one atomic NameNode operation. Hadoop's
 * local file system checks for the name and then renames, and a POSIX rename replaces what is there,
 * so two loads could both "win"; on {@code file://} the file gets its name by a hard link, which the
 * kernel refuses when the name exists, and the file and its directory are fsynced so a power loss
 * cannot undo a commit that was reported.
 */
final class ExclusiveCreate {

    private ExclusiveCreate() {
    }

    /** Gives {@code source} (written in full) the name {@code target}; false when {@code target} exists. */
    static boolean moveIfAbsent(FileSystem fs, Path source, Path target) throws IOException {
        if (isLocal(fs)) {
            return linkIfAbsent(fs, source, target);
        }
        try {
            FileContext.getFileContext(fs.getUri(), fs.getConf()).rename(source, target, Options.Rename.NONE);
            return true;
        } catch (org.apache.hadoop.fs.FileAlreadyExistsException e) {
            return false;
        }
    }

    static boolean isLocal(FileSystem fs) {
        return "file".equals(fs.getUri().getScheme());
    }

    private static boolean linkIfAbsent(FileSystem fs, Path source, Path target) throws IOException {
        java.nio.file.Path from = local(fs, source);
        java.nio.file.Path to = local(fs, target);
        fsync(from, false);
        try {
            Files.createLink(to, from);
        } catch (FileAlreadyExistsException e) {
            return false;
        }
        fsync(to.getParent(), true);
        Files.delete(from);
        // Hadoop's checksum sidecar of the source; the linked name has none, which Hadoop's reader accepts
        Files.deleteIfExists(from.resolveSibling("." + from.getFileName() + ".crc"));
        return true;
    }

    static java.nio.file.Path local(FileSystem fs, Path path) {
        return java.nio.file.Path.of(fs.makeQualified(path).toUri());
    }

    static void fsync(java.nio.file.Path path, boolean directory) throws IOException {
        try (FileChannel channel = FileChannel.open(path, directory ? StandardOpenOption.READ : StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }
}
