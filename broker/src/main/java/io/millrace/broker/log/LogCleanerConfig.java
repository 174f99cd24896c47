package io.millrace.broker.log;

import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;

/**
 * The log cleaner's settings ({@link LogCleaner}, {@link LogCompaction}), declared once under Kafka's
 * names: the broker's {@code log.cleaner.*} settings and the topic overrides of those that a topic may
 * set. {@link LogConfig} holds them in its {@link LogConfig#BROKER_CONFIG} and
 * {@link LogConfig#TOPIC_CONFIG} and resolves their values; {@code cleanup.policy} itself is
 * LogConfig's. Stateless.
 */
public final class LogCleanerConfig {

    public static final String LOG_CLEANER_ENABLE_CONFIG = "log.cleaner.enable";
    static final String LOG_CLEANER_ENABLE_DOC = "Whether the broker runs the log cleaner, which compacts the "
        + "partitions of topics with cleanup.policy compact. Without it their logs grow until deleted.";

    public static final String LOG_CLEANER_BACKOFF_MS_CONFIG = "log.cleaner.backoff.ms";
    static final String LOG_CLEANER_BACKOFF_MS_DOC = "How long the cleaner sleeps when no partition needs cleaning.";

    public static final String LOG_CLEANER_DEDUPE_BUFFER_SIZE_CONFIG = "log.cleaner.dedupe.buffer.size";
    static final String LOG_CLEANER_DEDUPE_BUFFER_SIZE_DOC = "Memory the cleaner's map of keys to their last "
        + "offset may take, 24 bytes a key; a pass cleans as many of a partition's closed segments, oldest first, as "
        + "their keys fit in.";

    public static final String LOG_CLEANER_MIN_CLEANABLE_RATIO_CONFIG = "log.cleaner.min.cleanable.ratio";
    static final String LOG_CLEANER_MIN_CLEANABLE_RATIO_DOC = "A compacted partition is cleaned when the bytes "
        + "written since its last cleaning are at least this share of its closed segments' bytes.";

    public static final String LOG_CLEANER_DELETE_RETENTION_MS_CONFIG = "log.cleaner.delete.retention.ms";
    static final String LOG_CLEANER_DELETE_RETENTION_MS_DOC = "How long a tombstone (a record with a null value) "
        + "is kept in a compacted partition after its segment's largest timestamp, so that a consumer reading from the "
        + "start sees the key's deletion.";

    public static final String LOG_CLEANER_MIN_COMPACTION_LAG_MS_CONFIG = "log.cleaner.min.compaction.lag.ms";
    static final String LOG_CLEANER_MIN_COMPACTION_LAG_MS_DOC = "The least time a record stays uncompacted: a "
        + "segment is cleaned only once its largest timestamp is at least this old.";

    public static final String LOG_CLEANER_MAX_COMPACTION_LAG_MS_CONFIG = "log.cleaner.max.compaction.lag.ms";
    static final String LOG_CLEANER_MAX_COMPACTION_LAG_MS_DOC = "The most time a closed segment waits for cleaning: "
        + "a partition holding a dirty segment older than this is cleaned whatever its dirty ratio.";

    // ---- topic overrides -------------------------------------------------------------------

    public static final String MIN_CLEANABLE_DIRTY_RATIO_CONFIG = "min.cleanable.dirty.ratio";
    public static final String DELETE_RETENTION_MS_CONFIG = "delete.retention.ms";
    public static final String MIN_COMPACTION_LAG_MS_CONFIG = "min.compaction.lag.ms";
    public static final String MAX_COMPACTION_LAG_MS_CONFIG = "max.compaction.lag.ms";

    private static final long HOUR_MS = 60L * 60 * 1000;

    private LogCleanerConfig() {
    }

    /** Adds the broker's cleaner settings to {@code def}. */
    static ConfigDef defineBrokerSettings(ConfigDef def) {
        return def
        .define(LOG_CLEANER_ENABLE_CONFIG, Type.BOOLEAN, true, Importance.MEDIUM, LOG_CLEANER_ENABLE_DOC)
        .define(LOG_CLEANER_BACKOFF_MS_CONFIG, Type.LONG, 15_000L, Range.atLeast(0), Importance.MEDIUM,
            LOG_CLEANER_BACKOFF_MS_DOC)
        .define(LOG_CLEANER_DEDUPE_BUFFER_SIZE_CONFIG, Type.LONG, 128L * 1024 * 1024, Range.atLeast(1024),
            Importance.MEDIUM, LOG_CLEANER_DEDUPE_BUFFER_SIZE_DOC)
        .define(LOG_CLEANER_MIN_CLEANABLE_RATIO_CONFIG, Type.DOUBLE, 0.5, Range.between(0, 1), Importance.MEDIUM,
            LOG_CLEANER_MIN_CLEANABLE_RATIO_DOC)
        .define(LOG_CLEANER_DELETE_RETENTION_MS_CONFIG, Type.LONG, 24 * HOUR_MS, Range.atLeast(0), Importance.MEDIUM,
            LOG_CLEANER_DELETE_RETENTION_MS_DOC)
        .define(LOG_CLEANER_MIN_COMPACTION_LAG_MS_CONFIG, Type.LONG, 0L, Range.atLeast(0), Importance.MEDIUM,
            LOG_CLEANER_MIN_COMPACTION_LAG_MS_DOC)
        .define(LOG_CLEANER_MAX_COMPACTION_LAG_MS_CONFIG, Type.LONG, Long.MAX_VALUE, Range.atLeast(1), Importance.MEDIUM,
            LOG_CLEANER_MAX_COMPACTION_LAG_MS_DOC);
    }

    /** Adds the topic overrides of the cleaner settings to {@code def}. */
    static ConfigDef defineTopicSettings(ConfigDef def) {
        return def
        .define(MIN_CLEANABLE_DIRTY_RATIO_CONFIG, Type.DOUBLE, null, Range.between(0, 1), Importance.MEDIUM,
            LogConfig.overrides(LOG_CLEANER_MIN_CLEANABLE_RATIO_CONFIG))
        .define(DELETE_RETENTION_MS_CONFIG, Type.LONG, null, Range.atLeast(0), Importance.MEDIUM,
            LogConfig.overrides(LOG_CLEANER_DELETE_RETENTION_MS_CONFIG))
        .define(MIN_COMPACTION_LAG_MS_CONFIG, Type.LONG, null, Range.atLeast(0), Importance.MEDIUM,
            LogConfig.overrides(LOG_CLEANER_MIN_COMPACTION_LAG_MS_CONFIG))
        .define(MAX_COMPACTION_LAG_MS_CONFIG, Type.LONG, null, Range.atLeast(1), Importance.MEDIUM,
            LogConfig.overrides(LOG_CLEANER_MAX_COMPACTION_LAG_MS_CONFIG));
    }
}
