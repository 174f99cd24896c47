package io.millrace.bench.compare;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * The operating system's dirty pages, flushed between scenarios. A producer at millions of records
 * a second leaves gigabytes in the page cache, which Linux writes back once they pass
 * {@code vm.dirty_background_ratio} or age past {@code vm.dirty_expire_centisecs}; flushing them
 * before a latency scenario keeps that writeback, and the disk and CPU time it takes, out of the
 * scenario that happens to run next.
 *
 * <p>It also primes the memory a producer scenario's log will take. On a virtual machine whose
 * free memory goes back to the host (free page reporting, as here), the kernel's first write into a
 * page the host has taken back costs a fault on the host: a page-cache write of 2 GB into such memory
 * ran at 420 MB/s, all of it kernel CPU, against 5.3 GB/s into pages freed a moment before. Which
 * kind a scenario met depended on what ran before it, so its stacks were measured under different
 * conditions from cell to cell; a physical machine's page cache has only the second kind.
 */
final class PageCache {

    private static final int PRIME_CHUNK_BYTES = 1 << 20;

    private PageCache() {
    }

    /** Runs {@code sync} and waits for it (up to a minute); does nothing where there is none. */
    static void writeBack() throws InterruptedException {
        try {
            Process sync = new ProcessBuilder("sync").redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!sync.waitFor(60, TimeUnit.SECONDS)) {
                sync.destroyForcibly();
            }
        } catch (IOException noSync) {
            // not a Unix system: the scenario runs on whatever the cache holds
        }
    }

    /**
     * Writes {@code bytes} to a scratch file in {@code dir} and deletes it, so that the next writes
     * of about that much take pages this machine has just used (see the class comment). The file is
     * never forced: its pages are freed with it, unwritten.
     */
    static void prime(Path dir, long bytes) throws IOException {
        ByteBuffer chunk = ByteBuffer.allocateDirect(PRIME_CHUNK_BYTES);
        Path scratch = Files.createTempFile(dir, "page-cache-prime-", ".tmp");
        try (FileChannel channel = FileChannel.open(scratch, StandardOpenOption.WRITE)) {
            for (long written = 0; written < bytes; written += PRIME_CHUNK_BYTES) {
                chunk.clear();
                while (chunk.hasRemaining()) {
                    channel.write(chunk);
                }
            }
        } finally {
            Files.delete(scratch);
        }
    }
}
