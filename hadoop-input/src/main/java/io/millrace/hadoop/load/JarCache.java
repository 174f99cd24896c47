package io.millrace.hadoop.load;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
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
 * temporary name and renames it, so a copy that exists is whole. Old versions are not deleted.
 */
final class JarCache {

    private static final Logger LOG = LoggerFactory.getLogger(JarCache.class);
    private static final int DIGEST_HEX_CHARS = 16;

    private final FileSystem fs;
    private final Path dir;

    JarCache(FileSystem fs, Path dir) {
        this.fs = fs;
        this.dir = dir;
    }

    /** The cached copy of the local jar {@code jar}, uploaded first if it is not there yet. */
    Path copyOf(java.nio.file.Path jar) throws IOException {
        Path cached = fs.makeQualified(new Path(dir, digest(jar) + "-" + jar.getFileName()));
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
