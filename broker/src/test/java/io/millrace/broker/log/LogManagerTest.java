package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static io.millrace.broker.log.LogTestUtils.config;
import static io.millrace.broker.log.LogTestUtils.readAll;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.config.ConfigException;
import io.millrace.testkit.FileCorrupter;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

public class LogManagerTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private Path dirA;
    private Path dirB;
    private LogManager manager;

    @Before
    public void setUp() throws IOException {
        dirA = temp.newFolder("disk-a").toPath();
        dirB = temp.newFolder("disk-b").toPath();
    }

    @After
    public void tearDown() {
        if (manager != null) {
            manager.shutdown();
        }
    }

    private LogManager start(LogConfig config, Path... dirs) {
        manager = new LogManager(config, List.of(dirs), time);
        manager.startup();
        return manager;
    }

    /** Waits for a background thread (not for time: the clock is mocked). */
    static void waitUntil(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("Timed out waiting until " + what);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    @Test
    public void newPartitionsGoToTheDirectoryWithFewestPartitions() {
        start(LogConfig.defaults(), dirA, dirB);
        Log first = manager.getOrCreateLog("events", 0);
        Log second = manager.getOrCreateLog("events", 1);
        Log third = manager.getOrCreateLog("events", 2);
        assertEquals(dirA.resolve("events-0"), first.dir());
        assertEquals(dirB.resolve("events-1"), second.dir());
        assertEquals(dirA.resolve("events-2"), third.dir());
        assertTrue(manager.getOrCreateLog("events", 0) == first);
        assertEquals(first, manager.getLog("events", 0).orElseThrow());
        assertTrue(manager.getLog("events", 9).isEmpty());
    }

    @Test
    public void illegalTopicNamesAreRejected() {
        start(LogConfig.defaults(), dirA);
        assertThrows(IllegalArgumentException.class, () -> manager.getOrCreateLog("bad topic", 0));
        assertThrows(IllegalArgumentException.class, () -> manager.getOrCreateLog("..", 0));
        assertThrows(IllegalArgumentException.class, () -> manager.getOrCreateLog("ok", -1));
    }

    @Test
    public void shutdownWritesCheckpointsAndMarkersAndARestartLoadsEveryLog() throws IOException {
        start(LogConfig.defaults(), dirA, dirB);
        for (int p = 0; p < 4; p++) {
            Log log = manager.getOrCreateLog("clicks", p);
            for (int i = 0; i <= p; i++) {
                log.append(batch(time.milliseconds(), "p" + p + "-" + i));
            }
        }
        manager.shutdown();
        for (Path dir : List.of(dirA, dirB)) {
            assertTrue(Files.exists(dir.resolve(LogFileNames.CLEAN_SHUTDOWN_MARKER)));
            assertTrue(Files.readString(dir.resolve(LogFileNames.RECOVERY_POINT_CHECKPOINT)).startsWith("0\n2\n"));
        }
        assertEquals(4L, new OffsetCheckpointFile(dirB.resolve(LogFileNames.RECOVERY_POINT_CHECKPOINT)).read()
            .get(new TopicPartition("clicks", 3)).longValue());

        start(LogConfig.defaults(), dirA, dirB);
        assertEquals(4, manager.allLogs().size());
        for (int p = 0; p < 4; p++) {
            Log log = manager.getLog("clicks", p).orElseThrow();
            assertEquals(p + 1, log.logEndOffset());
            assertEquals("everything was flushed at shutdown", p + 1, log.recoveryPoint());
        }
        assertFalse("a crash from now on must count as unclean", Files.exists(dirA.resolve(LogFileNames.CLEAN_SHUTDOWN_MARKER)));
    }

    @Test
    public void theCleanShutdownMarkerSkipsRecoveryAndItsAbsenceForcesIt() throws IOException {
        start(LogConfig.defaults(), dirA);
        Log log = manager.getOrCreateLog("t", 0);
        log.append(batch(1, "a"));
        log.append(batch(2, "b"));
        manager.shutdown();
        Path segment = LogFileNames.logFile(dirA.resolve("t-0"), 0);
        FileCorrupter.flipByte(segment, Files.size(segment) - 1);

        start(LogConfig.defaults(), dirA);
        assertEquals("loaded as it was: no validation", 2, manager.getLog("t", 0).orElseThrow().logEndOffset());
        manager.shutdown();

        Files.delete(dirA.resolve(LogFileNames.CLEAN_SHUTDOWN_MARKER));
        start(LogConfig.defaults(), dirA);
        assertEquals("recovered: the damaged batch is cut", 1, manager.getLog("t", 0).orElseThrow().logEndOffset());
    }

    @Test
    public void aDeletedLogIsRenamedAtOnceAndRemovedInTheBackground() throws IOException {
        start(LogConfig.defaults(), dirA);
        manager.getOrCreateLog("gone", 0).append(batch(1, "x"));
        assertTrue(manager.deleteLog("gone", 0));
        assertFalse(Files.exists(dirA.resolve("gone-0")));
        assertTrue(manager.getLog("gone", 0).isEmpty());
        assertFalse(manager.deleteLog("gone", 0));
        waitUntil("the renamed directory is removed", () -> {
            try (var entries = Files.list(dirA)) {
                return entries.noneMatch(p -> p.getFileName().toString().startsWith("gone-0."));
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        });
        assertEquals(0, manager.getOrCreateLog("gone", 0).logEndOffset());
    }

    @Test
    public void leftoversOfInterruptedDeletesAreRemovedAtStartup() throws IOException {
        Path partition = Files.createDirectories(dirA.resolve("t-0"));
        Files.write(partition.resolve("00000000000000000000.log.deleted"), new byte[10]);
        Files.write(partition.resolve("00000000000000000000.index.swap"), new byte[10]);
        Path deletedPartition = Files.createDirectories(dirA.resolve("t-1.0123abcd-delete"));
        Files.write(deletedPartition.resolve("00000000000000000000.log"), new byte[10]);
        start(LogConfig.defaults(), dirA);
        assertFalse(Files.exists(partition.resolve("00000000000000000000.log.deleted")));
        assertFalse(Files.exists(partition.resolve("00000000000000000000.index.swap")));
        assertFalse(Files.exists(deletedPartition));
        assertEquals(1, manager.allLogs().size());
    }

    @Test
    public void topicOverridesApplyToExistingAndNewLogs() {
        start(LogConfig.defaults(), dirA);
        Log existing = manager.getOrCreateLog("audit", 0);
        manager.setTopicConfig("audit", Map.of(LogConfig.SEGMENT_BYTES_CONFIG, "4096", LogConfig.RETENTION_MS_CONFIG, 1000L));
        assertEquals(4096, existing.config().segmentBytes());
        assertEquals(1000, manager.getOrCreateLog("audit", 1).config().retentionMs());
        assertEquals(LogConfig.defaults().segmentBytes(), manager.getOrCreateLog("other", 0).config().segmentBytes());
        assertThrows(ConfigException.class, () -> manager.setTopicConfig("audit", Map.of("log.segment.bytes", 1)));
    }

    @Test
    public void theRetentionScheduleDeletesExpiredSegments() {
        start(config(LogConfig.LOG_RETENTION_CHECK_INTERVAL_MS_CONFIG, 20L, LogConfig.LOG_RETENTION_MS_CONFIG, 60_000L,
            LogConfig.LOG_SEGMENT_BYTES_CONFIG, 200, LogConfig.LOG_SEGMENT_DELETE_DELAY_MS_CONFIG, 0L), dirA);
        Log log = manager.getOrCreateLog("metrics", 0);
        for (int i = 0; i < 10; i++) {
            log.append(batch(time.milliseconds(), "m" + i));
        }
        assertTrue(log.numberOfSegments() > 2);
        time.advance(60_001);
        waitUntil("retention ran", () -> log.numberOfSegments() == 1);
        assertEquals(log.segmentBaseOffsets().get(0).longValue(), log.logStartOffset());
    }

    @Test
    public void theFlushScheduleFsyncsLogsOlderThanFlushMs() {
        start(config(LogConfig.LOG_FLUSH_SCHEDULER_INTERVAL_MS_CONFIG, 10L, LogConfig.LOG_FLUSH_INTERVAL_MS_CONFIG, 5000L), dirA);
        Log log = manager.getOrCreateLog("slow", 0);
        log.append(batch(1, "a"));
        manager.flushDirtyLogs();
        assertEquals("not yet due", 0, log.recoveryPoint());
        time.advance(5000);
        waitUntil("the scheduled flush ran", () -> log.recoveryPoint() == 1);
    }

    @Test
    public void perTopicFlushMessagesOverridesTheBrokerDefault() throws Exception {
        start(LogConfig.defaults(), dirA);
        manager.setTopicConfig("durable", Map.of(LogConfig.FLUSH_MESSAGES_CONFIG, 1L));
        Log durable = manager.getOrCreateLog("durable", 0);
        durable.append(batch(1, "a"));
        waitUntil("a flush after one message", () -> durable.recoveryPoint() == 1);
        Log lazy = manager.getOrCreateLog("lazy", 0);
        lazy.append(batch(1, "a"));
        assertEquals(0, lazy.recoveryPoint());
    }

    @Test
    public void checkpointRecordsEachLogsRecoveryPoint() throws IOException {
        start(LogConfig.defaults(), dirA);
        Log log = manager.getOrCreateLog("cp", 0);
        log.append(batch(1, "a", "b", "c"));
        log.flush();
        manager.checkpointRecoveryPoints();
        assertEquals(Map.of(new TopicPartition("cp", 0), 3L),
            new OffsetCheckpointFile(dirA.resolve(LogFileNames.RECOVERY_POINT_CHECKPOINT)).read());
    }

    @Test
    public void aLogDirectoryCannotBeUsedByTwoManagersAtOnce() {
        start(LogConfig.defaults(), dirA);
        LogManager second = new LogManager(LogConfig.defaults(), List.of(dirA), time);
        assertThrows(IllegalStateException.class, second::startup);
    }

    @Test
    public void aPartitionFoundInTwoDirectoriesStopsTheStartup() throws IOException {
        Files.createDirectories(dirA.resolve("dup-0"));
        Files.createDirectories(dirB.resolve("dup-0"));
        manager = new LogManager(LogConfig.defaults(), List.of(dirA, dirB), time);
        assertThrows(IllegalStateException.class, manager::startup);
    }

    @Test
    public void logDirsDefaultsToOneDirectoryUnderTmp() {
        assertEquals(List.of(Path.of("/tmp/millrace-logs")), LogConfig.defaults().logDirs());
        LogConfig config = config(LogConfig.LOG_DIRS_CONFIG, dirA + "," + dirB);
        manager = new LogManager(config, time);
        manager.startup();
        assertEquals(List.of(dirA, dirB), manager.liveLogDirs());
        assertEquals(0, readAllSafe());
    }

    private int readAllSafe() {
        int batches = 0;
        for (Log log : manager.allLogs()) {
            try {
                batches += readAll(log).size();
            } catch (IOException e) {
                throw new AssertionError(e);
            }
        }
        return batches;
    }
}
