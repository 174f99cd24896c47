package io.millrace.broker.log;

import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import io.millrace.common.config.ConfigDef.ValidString;
import io.millrace.common.record.TimestampType;

/**
 * The settings that govern record timestamps on append ({@link LogValidator}), declared once under
 * Kafka's names: which clock stamps a batch, and how far a producer's clock may stray from the
 * broker's before its batch is refused. {@link LogConfig} holds them in its
 * {@link LogConfig#BROKER_CONFIG} and {@link LogConfig#TOPIC_CONFIG} and resolves their values.
 * Stateless.
 */
public final class MessageTimestampConfig {

    public static final String LOG_MESSAGE_TIMESTAMP_TYPE_CONFIG = "log.message.timestamp.type";
    static final String LOG_MESSAGE_TIMESTAMP_TYPE_DOC = "CreateTime keeps the producer's timestamps; LogAppendTime "
        + "stamps every batch with the broker's clock at append.";

    public static final String LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG = "log.message.timestamp.after.max.ms";
    static final String LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS_DOC = "With CreateTime, the furthest a batch's largest "
        + "timestamp may lie ahead of the broker's clock; a later one is refused with INVALID_TIMESTAMP. A record from "
        + "the far future would otherwise keep its segment, and every later one, from time-based retention.";

    public static final String LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG = "log.message.timestamp.before.max.ms";
    static final String LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS_DOC = "With CreateTime, the furthest a batch's first "
        + "timestamp may lie behind the broker's clock; an earlier one is refused with INVALID_TIMESTAMP.";

    // ---- topic overrides -------------------------------------------------------------------

    public static final String MESSAGE_TIMESTAMP_TYPE_CONFIG = "message.timestamp.type";
    public static final String MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG = "message.timestamp.after.max.ms";
    public static final String MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG = "message.timestamp.before.max.ms";

    private static final long HOUR_MS = 60L * 60 * 1000;
    private static final String[] TIMESTAMP_TYPES = {TimestampType.CREATE_TIME.displayName,
        TimestampType.LOG_APPEND_TIME.displayName};

    private MessageTimestampConfig() {
    }

    /** Adds the broker's timestamp settings to {@code def}. */
    static ConfigDef defineBrokerSettings(ConfigDef def) {
        return def
        .define(LOG_MESSAGE_TIMESTAMP_TYPE_CONFIG, Type.STRING, TimestampType.CREATE_TIME.displayName,
            ValidString.in(TIMESTAMP_TYPES), Importance.MEDIUM, LOG_MESSAGE_TIMESTAMP_TYPE_DOC)
        .define(LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG, Type.LONG, HOUR_MS, Range.atLeast(0), Importance.MEDIUM,
            LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS_DOC)
        .define(LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG, Type.LONG, Long.MAX_VALUE, Range.atLeast(0),
            Importance.MEDIUM, LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS_DOC);
    }

    /** Adds the topic overrides of the timestamp settings to {@code def}. */
    static ConfigDef defineTopicSettings(ConfigDef def) {
        return def
        .define(MESSAGE_TIMESTAMP_TYPE_CONFIG, Type.STRING, null, ValidString.in(TIMESTAMP_TYPES),
            Importance.MEDIUM, LogConfig.overrides(LOG_MESSAGE_TIMESTAMP_TYPE_CONFIG))
        .define(MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG, Type.LONG, null, Range.atLeast(0), Importance.MEDIUM,
            LogConfig.overrides(LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG))
        .define(MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG, Type.LONG, null, Range.atLeast(0), Importance.MEDIUM,
            LogConfig.overrides(LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG));
    }

}
