package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.common.errors.KafkaStorageException;
import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * Deleting a topic while it is being read: the readers of that partition get an error for that
 * partition, and the directory stays online for every other partition on it.
 */
public class DeleteWhileReadTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private LogManager manager;

    @After
    public void tearDown() {
        if (manager != null) {
            manager.shutdown();
        }
    }

    @Test(timeout = 120_000)
    public void aLogDeletedUnderItsReadersLeavesTheDirectoryOnline() throws Exception {
        Path dir = temp.newFolder("disk").toPath();
        manager = new LogManager(LogConfig.defaults(), List.of(dir), new MockTime());
        manager.startup();
        manager.getOrCreateLog("steady", 0).append(batch(1, "s"));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong reads = new AtomicLong();
        AtomicReference<Throwable> unexpected = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Thread reader = new Thread(() -> readUntilStopped(stop, reads, unexpected), "reader-" + i);
            reader.start();
            readers.add(reader);
        }
        try {
            for (int round = 0; round < 300 && !manager.failureChannel().isOffline(dir); round++) {
                Log doomed = manager.getOrCreateLog("doomed", 0);
                for (int b = 0; b < 20; b++) {
                    doomed.append(batch(1, "a", "b", "c", "d"));
                }
                long before = reads.get();
                while (reads.get() < before + 20) {
                    Thread.onSpinWait();
                }
                assertTrue(manager.deleteLog("doomed", 0));
            }
        } finally {
            stop.set(true);
            for (Thread reader : readers) {
                reader.join();
            }
        }
        assertEquals(null, unexpected.get());
        assertFalse("the directory went offline", manager.failureChannel().isOffline(dir));
        assertFalse(manager.getLog("steady", 0).orElseThrow().read(0, 1024, true).isEmpty());
    }

    private void readUntilStopped(AtomicBoolean stop, AtomicLong reads, AtomicReference<Throwable> unexpected) {
        while (!stop.get()) {
            Optional<Log> log = manager.getLog("doomed", 0);
            if (log.isEmpty()) {
                continue;
            }
            try {
                long end = log.get().logEndOffset();
                for (long offset = 0; offset < end; offset += 4) {
                    log.get().read(offset, 64, true);
                }
            } catch (KafkaStorageException | OffsetOutOfRangeException expected) {
                // the log was deleted under this reader: an error for this partition only
            } catch (RuntimeException e) {
                unexpected.compareAndSet(null, e);
            }
            reads.incrementAndGet();
        }
    }
}
