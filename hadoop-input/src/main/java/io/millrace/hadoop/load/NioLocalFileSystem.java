package io.millrace.hadoop.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RawLocalFileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.nativeio.NativeIO;

/**
 * Hadoop's local file system ({@code file://}), checksums included, except that it sets permissions
 * through {@code java.nio} when Hadoop's native library is not loaded. Without that library (which no
 * Maven artifact carries) Hadoop forks a {@code chmod} for every file and directory it creates: about
 * 2.5 ms each, some 120 times in a load on the LocalJobRunner, a fifth of a load of 3M events.
 * A permission {@code java.nio} cannot set (the sticky bit) still goes to Hadoop's way.
 * {@link #useIn} puts it in a load's configuration.
 */
public class NioLocalFileSystem extends LocalFileSystem {

    private static final PosixFilePermission[] BITS = {
        PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
        PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
        PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ,
    };

    public NioLocalFileSystem() {
        super(new Raw());
    }

    /**
     * Makes {@code file://} this file system in {@code conf} when Hadoop's native library is not loaded and
     * nobody chose another implementation. A JVM's first {@code file://} file system is cached and kept,
     * so this takes effect where {@code conf} creates it: the LoadJob's client, the LocalJobRunner's tasks,
     * a cluster's task JVMs (the class ships in the job's jars).
     */
    public static void useIn(Configuration conf) {
        if (!NativeIO.isAvailable()) {
            conf.setIfUnset("fs.file.impl", NioLocalFileSystem.class.getName());
        }
    }

    /** The file system under the checksums. */
    static final class Raw extends RawLocalFileSystem {

        @Override
        public void setPermission(Path p, FsPermission permission) throws IOException {
            short mode = permission.toShort();
            if (NativeIO.isAvailable() || (mode & ~0777) != 0) {
                super.setPermission(p, permission);
                return;
            }
            Files.setPosixFilePermissions(pathToFile(p).toPath(), posix(mode));
        }

        static Set<PosixFilePermission> posix(short mode) {
            Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
            for (int bit = 0; bit < BITS.length; bit++) {
                if ((mode & (1 << bit)) != 0) {
                    set.add(BITS[bit]);
                }
            }
            return set;
        }
    }
}
