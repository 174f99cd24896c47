package io.millrace.hadoop.load;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies of the jars a load ships to its tasks, kept in a directory of the cluster's file system (the
 * state directory's {@code jars/}) under a name that holds a digest of their content. Hadoop uploads a
 * job's {@code tmpjars} with every job unless they already are on the job's file system; with the
 * copies here a load uploads a jar once, and again only when its content changes (a new build).
 * Loads of other state directories, or running at once, may upload the same jar: each writes a
 * temporary name and renames it, so a copy that exists is whole. Once a load's job is over,
 * {@link #pruneUnnamed} deletes the versions it did not name.
 */
final class JarCache {

    private static final Logger LOG = LoggerFactory.getLogger(JarCache.class);
    private static final int DIGEST_HEX_CHARS = 16;

    private final FileSystem fs;
    private final Path dir;
    /** The copies this load named; guarded by this. */
    private final Set<String> named = new HashSet<>();

    JarCache(FileSystem fs, Path dir) {
        this.fs = fs;
        this.dir = dir;
    }

    /** The cached copy of the local jar {@code jar}, uploaded first if it is not there yet. */
    Path copyOf(java.nio.file.Path jar) throws IOException {
        Path cached = fs.makeQualified(new Path(dir, digest(jar) + "-" + jar.getFileName()));
        synchronized (this) {
            named.add(cached.getName());
        }
        if (fs.exists(cached)) {
            return cached;
        }
        Path temporary = new Path(dir, "." + cached.getName() + "." + Integer.toHexString(ThreadLocalRandom.current().nextInt()));
        fs.copyFromLocalFile(false, true, new Path(jar.toUri()), temporary);
        if (!fs.rename(temporary, cached)) {
            fs.delete(temporary, false);
            if (!fs.exists(cached)) {
                throw new IOException("Could not put " + jar + " into the jar cache as " + cached);
            }
        }
        LOG.info("Uploaded {} to the jar cache as {}", jar.getFileName(), cached);
        return cached;
    }

    /**
     * Deletes what this load did not name: older versions of its jars, jars no build ships any more, and
     * the temporaries of uploads that crashed. Called under the state directory's load lock once the
     * load's job is over, so no job of this state directory still needs them (a build rolled back to
     * uploads its jars again). A load that named nothing (one on the LocalJobRunner, which ships no
     * jars) deletes nothing. Failures are logged, never thrown: the load's outcome does not depend on it.
     *
     * @return how many files were deleted
     */
    synchronized int pruneUnnamed() {
        if (named.isEmpty()) {
            return 0;
        }
        int deleted = 0;
        try {
            if (!fs.exists(dir)) {
                return 0;
            }
            for (FileStatus file : fs.listStatus(dir)) {
                String name = file.getPath().getName();
                if (!named.contains(name) && fs.delete(file.getPath(), false)) {
                    deleted++;
                }
            }
        } catch (IOException e) {
            LOG.warn("Could not remove old versions from the jar cache {}; the next load tries again", dir, e);
        }
        if (deleted > 0) {
            LOG.info("Removed {} files from the jar cache {} that this load did not ship", deleted, dir);
        }
        return deleted;
    }

    private static String digest(java.nio.file.Path jar) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every JVM has SHA-256", e);
        }
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(jar)) {
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                sha.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(sha.digest()).substring(0, DIGEST_HEX_CHARS);
    }
}
