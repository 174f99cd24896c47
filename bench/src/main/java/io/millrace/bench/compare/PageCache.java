package io.millrace.bench.compare;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * The operating system's dirty pages, flushed between scenarios. A producer at millions of records
 * a second leaves gigabytes in the page cache, which Linux writes back once they pass
 * {@code vm.dirty_background_ratio} or age past {@code vm.dirty_expire_centisecs}; flushing them
 * before a latency scenario keeps that writeback, and the disk and CPU time it takes, out of the
 * scenario that happens to run next.
 */
final class PageCache {

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
}
