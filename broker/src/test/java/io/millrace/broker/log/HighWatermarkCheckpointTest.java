package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batch;
import static org.junit.Assert.assertEquals;

import io.millrace.common.TopicPartition;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** The log directory's {@code replication-offset-checkpoint}: written with the recovery points, read at startup. */
public class HighWatermarkCheckpointTest {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private Path dir;
    private LogManager manager;

    @Before
    public void setUp() throws IOException {
        dir = temp.newFolder("disk").toPath();
    }

    @After
    public void tearDown() {
        if (manager != null) {
            manager.shutdown();
        }
    }

    private Log start() {
        manager = new LogManager(LogConfig.defaults(), List.of(dir), time);
        manager.startup();
        return manager.getOrCreateLog("events", 0);
    }

    private Map<TopicPartition, Long> checkpointed() throws IOException {
        return new OffsetCheckpointFile(dir.resolve(LogFileNames.REPLICATION_OFFSET_CHECKPOINT)).read();
    }

    private static void appendFive(Log log) {
        for (int i = 0; i < 5; i++) {
            log.append(batch(1_700_000_000_000L, "a", "b"));
        }
    }

    @Test
    public void withoutFollowersTheCheckpointHoldsTheLogEnd() throws IOException {
        appendFive(start());
        manager.shutdown();
        assertEquals(Map.of(new TopicPartition("events", 0), 10L), checkpointed());
        assertEquals(10, start().highWatermark());
    }

    @Test
    public void aManagedHighWatermarkSurvivesARestart() throws IOException {
        Log log = start();
        log.setHighWatermarkFollowsLogEnd(false);
        appendFive(log);
        log.updateHighWatermark(4);
        manager.shutdown();
        assertEquals(Map.of(new TopicPartition("events", 0), 4L), checkpointed());
        log = start();
        assertEquals("a log follows its end until told otherwise", 10, log.highWatermark());
        log.setHighWatermarkFollowsLogEnd(false);
        assertEquals(4, log.highWatermark());
    }

    @Test
    public void aCrashKeepsTheLastScheduledCheckpoint() throws IOException {
        Log log = start();
        log.setHighWatermarkFollowsLogEnd(false);
        appendFive(log);
        log.updateHighWatermark(6);
        manager.checkpointRecoveryPoints();
        log.updateHighWatermark(8);
        log.flush();
        manager.halt();
        log = start();
        log.setHighWatermarkFollowsLogEnd(false);
        assertEquals(6, log.highWatermark());
    }
}
