package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static io.millrace.broker.log.LogTestUtils.readAll;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.errors.KafkaStorageException;
import io.millrace.testkit.FaultyFileChannel;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** A disk that starts failing takes its directory offline; the other directory keeps serving. */
public class LogDirFailureTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private final FaultyFileChannel.Switch diskA = new FaultyFileChannel.Switch();
    private Path dirA;
    private Path dirB;
    private LogManager manager;

    @Before
    public void setUp() throws IOException {
        dirA = temp.newFolder("disk-a").toPath();
        dirB = temp.newFolder("disk-b").toPath();
        LogFileOpener opener = (path, options) -> {
            FileChannel channel = FileChannel.open(path, options);
            return path.startsWith(dirA) ? new FaultyFileChannel(channel, diskA) : channel;
        };
        manager = new LogManager(LogConfig.defaults(), List.of(dirA, dirB), time, opener);
        manager.startup();
    }

    @After
    public void tearDown() {
        manager.shutdown();
    }

    @Test
    public void anIoErrorTakesOnlyItsDirectoryOffline() throws IOException {
        Log onA = manager.getOrCreateLog("orders", 0);
        Log onB = manager.getOrCreateLog("orders", 1);
        assertEquals(dirA, onA.logDir());
        onA.append(batch(1, "before the failure"));
        onB.append(batch(1, "b0"));

        diskA.fail();
        KafkaStorageException error = assertThrows(KafkaStorageException.class, () -> onA.append(batch(2, "lost")));
        assertTrue(error.getMessage(), error.getMessage().contains(dirA.toString()));
        assertEquals(Set.of(dirA), manager.failureChannel().offlineDirs());
        assertEquals(List.of(dirB), manager.liveLogDirs());

        assertThrows(KafkaStorageException.class, () -> onA.read(0, 100, true));
        assertThrows(KafkaStorageException.class, () -> onA.append(batch(3, "still offline")));
        onB.append(batch(2, "b1"));
        assertEquals(2, readAll(onB).size());
        assertEquals("new partitions avoid the offline directory", dirB, manager.getOrCreateLog("orders", 2).logDir());
        manager.cleanupLogs();
        manager.checkpointRecoveryPoints();
    }

    @Test
    public void waitersOnEveryLogOfTheFailedDirectoryAreFailed() throws Exception {
        Log first = manager.getOrCreateLog("a", 0);
        manager.getOrCreateLog("filler", 0);
        Log second = manager.getOrCreateLog("a", 1);
        assertEquals(first.logDir(), second.logDir());
        CompletableFuture<Void> waiting = second.awaitFlushed(100);

        diskA.fail();
        assertThrows(KafkaStorageException.class, () -> first.append(batch(1, "x")));
        ExecutionException failed = assertThrows(ExecutionException.class, () -> waiting.get(10, TimeUnit.SECONDS));
        assertTrue(failed.getCause() instanceof KafkaStorageException);
        assertTrue(second.awaitFlushed(0).isCompletedExceptionally());
    }

    @Test
    public void aFailedFsyncFailsTheAppendsWaitingForIt() throws Exception {
        Log onA = manager.getOrCreateLog("sync", 0);
        long offset = onA.append(batch(1, "unsynced")).lastOffset();
        diskA.fail();
        CompletableFuture<Void> durable = onA.awaitFlushed(offset);
        ExecutionException failed = assertThrows(ExecutionException.class, () -> durable.get(10, TimeUnit.SECONDS));
        assertTrue(failed.getCause() instanceof KafkaStorageException);
        assertTrue(manager.failureChannel().isOffline(dirA));
    }

    @Test
    public void anOfflineDirectoryGetsNoCleanShutdownMarkerAndIsRecoveredOnRestart() throws IOException {
        Log onA = manager.getOrCreateLog("events", 0);
        manager.getOrCreateLog("events", 1);
        onA.append(batch(1, "kept"));
        diskA.fail();
        assertThrows(KafkaStorageException.class, onA::flush);
        manager.shutdown();
        assertFalse(Files.exists(dirA.resolve(LogFileNames.CLEAN_SHUTDOWN_MARKER)));
        assertTrue(Files.exists(dirB.resolve(LogFileNames.CLEAN_SHUTDOWN_MARKER)));

        diskA.heal();
        manager = new LogManager(LogConfig.defaults(), List.of(dirA, dirB), time);
        manager.startup();
        Log reloaded = manager.getLog("events", 0).orElseThrow();
        assertEquals(1, reloaded.logEndOffset());
        assertEquals(1, readAll(reloaded).size());
    }
}
