package io.millrace.broker.log;

import static io.millrace.broker.log.LogTestUtils.batchWithTimestamps;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.errors.InvalidTimestampException;
import io.millrace.testkit.MockTime;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * CreateTime bounds (Kafka's message.timestamp.after.max.ms / before.max.ms): a batch from the far
 * future is refused, so it cannot pin time-based retention of its segment and every later one.
 */
public class TimestampBoundsTest {

    private static final long HOUR = 3_600_000L;

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final MockTime time = new MockTime();
    private LogManager manager;

    @After
    public void tearDown() {
        if (manager != null) {
            manager.shutdown();
        }
    }

    private Log log(Map<String, Object> brokerSettings) throws IOException {
        manager = new LogManager(LogTestUtils.config(flatten(brokerSettings)), List.of(temp.newFolder().toPath()), time);
        manager.startup();
        return manager.getOrCreateLog("stamped", 0);
    }

    private static Object[] flatten(Map<String, Object> settings) {
        return settings.entrySet().stream().flatMap(e -> java.util.stream.Stream.of(e.getKey(), e.getValue())).toArray();
    }

    @Test
    public void aBatchMoreThanAnHourAheadIsRefusedAndNothingOfItIsAppended() throws IOException {
        Log log = log(Map.of());
        long now = time.milliseconds();
        log.append(batchWithTimestamps(now - 10 * HOUR, now + HOUR - 1));
        InvalidTimestampException refused = assertThrows(InvalidTimestampException.class,
            () -> log.append(batchWithTimestamps(now, now + 100L * 24 * HOUR)));
        assertTrue(refused.getMessage(), refused.getMessage().contains("message.timestamp.after.max.ms"));
        assertEquals(2, log.logEndOffset());
    }

    @Test
    public void theBoundsAreSettingsAndApplyOnlyToCreateTime() throws IOException {
        Log bounded = log(Map.of(MessageTimestampConfig.LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG, 1_000L,
            MessageTimestampConfig.LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG, HOUR));
        long now = time.milliseconds();
        assertThrows(InvalidTimestampException.class, () -> bounded.append(batchWithTimestamps(now + 1_001)));
        assertThrows(InvalidTimestampException.class, () -> bounded.append(batchWithTimestamps(now - HOUR - 1)));
        bounded.append(batchWithTimestamps(now - HOUR, now + 1_000));
        manager.shutdown();

        Log appendTime = log(Map.of(MessageTimestampConfig.LOG_MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime"));
        appendTime.append(batchWithTimestamps(time.milliseconds() + 100L * 24 * HOUR));
        assertEquals(1, appendTime.logEndOffset());
    }
}
