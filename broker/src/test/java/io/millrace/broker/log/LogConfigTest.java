package io.millrace.broker.log;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.config.ConfigException;
import io.millrace.common.record.TimestampType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.Test;

public class LogConfigTest {

    private static final long HOUR = 3_600_000L;

    @Test
    public void defaultsAreKafkas() {
        LogConfig config = LogConfig.defaults();
        assertEquals(1024 * 1024 * 1024, config.segmentBytes());
        assertEquals(168 * HOUR, config.segmentMs());
        assertEquals(168 * HOUR, config.retentionMs());
        assertEquals(-1, config.retentionBytes());
        assertEquals(300_000, config.retentionCheckIntervalMs());
        assertEquals(Long.MAX_VALUE, config.flushMessages());
        assertEquals(Long.MAX_VALUE, config.flushMs());
        assertEquals(4096, config.indexIntervalBytes());
        assertEquals(10 * 1024 * 1024, config.maxIndexSize());
        assertEquals(1048588, config.maxMessageBytes());
        assertEquals(TimestampType.CREATE_TIME, config.timestampType());
        assertEquals(60_000, config.fileDeleteDelayMs());
    }

    @Test
    public void topicOverridesWinAndUnsetOnesFallBackToTheBroker() {
        LogConfig broker = new LogConfig(Map.of(LogConfig.LOG_SEGMENT_BYTES_CONFIG, "5000",
            LogConfig.LOG_RETENTION_BYTES_CONFIG, "100000"));
        LogConfig topic = broker.withOverrides(Map.of(LogConfig.SEGMENT_BYTES_CONFIG, "2000",
            MessageTimestampConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime", LogConfig.FLUSH_MESSAGES_CONFIG, 1L,
            LogConfig.MAX_MESSAGE_BYTES_CONFIG, 777));
        assertEquals(2000, topic.segmentBytes());
        assertEquals(100_000, topic.retentionBytes());
        assertEquals(TimestampType.LOG_APPEND_TIME, topic.timestampType());
        assertEquals(1, topic.flushMessages());
        assertEquals(777, topic.maxMessageBytes());
        assertEquals(5000, broker.segmentBytes());
        assertEquals(Map.of(LogConfig.SEGMENT_BYTES_CONFIG, 2000, MessageTimestampConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "LogAppendTime",
            LogConfig.FLUSH_MESSAGES_CONFIG, 1L, LogConfig.MAX_MESSAGE_BYTES_CONFIG, 777), topic.overrides());
    }

    @Test
    public void overridesStackAndRetentionMsOverridesBothBrokerRetentionSettings() {
        LogConfig broker = new LogConfig(Map.of(LogConfig.LOG_RETENTION_HOURS_CONFIG, 1, LogConfig.LOG_RETENTION_MS_CONFIG, 5L));
        LogConfig topic = broker.withOverrides(Map.of(LogConfig.SEGMENT_MS_CONFIG, 10L))
            .withOverrides(Map.of(LogConfig.RETENTION_MS_CONFIG, 99L));
        assertEquals(5, broker.retentionMs());
        assertEquals(99, topic.retentionMs());
        assertEquals(10, topic.segmentMs());
    }

    @Test
    public void badValuesAndUnknownTopicSettingsAreRejectedNamingTheSetting() {
        ConfigException tooSmall = assertThrows(ConfigException.class,
            () -> new LogConfig(Map.of(LogConfig.LOG_SEGMENT_BYTES_CONFIG, 10)));
        assertTrue(tooSmall.getMessage().contains(LogConfig.LOG_SEGMENT_BYTES_CONFIG));
        assertThrows(ConfigException.class,
            () -> LogConfig.defaults().withOverrides(Map.of(MessageTimestampConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG, "WallClock")));
        assertThrows(ConfigException.class, () -> LogConfig.defaults().withOverrides(Map.of("retention.hours", 1)));
        assertThrows(ConfigException.class, () -> new LogConfig(Map.of(LogConfig.LOG_FLUSH_INTERVAL_MESSAGES_CONFIG, 0)));
    }

    @Test
    public void storageDocsCarryTheCurrentSettingsTables() throws IOException {
        String docs = Files.readString(Path.of("..", "docs", "storage.md"));
        assertTrue("docs/storage.md has the broker table; regenerate it from LogConfig.BROKER_CONFIG.toMarkdownTable()",
            docs.contains(LogConfig.BROKER_CONFIG.toMarkdownTable()));
        assertTrue("docs/storage.md has the topic table; regenerate it from LogConfig.TOPIC_CONFIG.toMarkdownTable()",
            docs.contains(LogConfig.TOPIC_CONFIG.toMarkdownTable()));
    }
}
