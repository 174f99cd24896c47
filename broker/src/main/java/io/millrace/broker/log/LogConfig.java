package io.millrace.broker.log;

import static io.millrace.broker.log.MessageTimestampConfig.LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG;
import static io.millrace.broker.log.MessageTimestampConfig.LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG;
import static io.millrace.broker.log.MessageTimestampConfig.LOG_MESSAGE_TIMESTAMP_TYPE_CONFIG;
import static io.millrace.broker.log.MessageTimestampConfig.MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG;
import static io.millrace.broker.log.MessageTimestampConfig.MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG;
import static io.millrace.broker.log.MessageTimestampConfig.MESSAGE_TIMESTAMP_TYPE_CONFIG;
import static io.millrace.broker.log.TopicReplicationConfig.MIN_INSYNC_REPLICAS_CONFIG;
import static io.millrace.broker.log.TopicReplicationConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import io.millrace.common.config.ConfigException;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.TimestampType;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every setting of the log, declared once. {@link #BROKER_CONFIG} holds the broker's settings
 * under Kafka's broker names ({@code log.segment.bytes}, {@code message.max.bytes}, ...);
 * {@link #TOPIC_CONFIG} holds the per-topic overrides under Kafka's topic names
 * ({@code segment.bytes}, {@code max.message.bytes}, ...), which have no defaults of their own:
 * an override that is not set falls back to the broker's value. Three groups are declared in
 * classes of their own and held here: {@link LogCleanerConfig}, {@link MessageTimestampConfig} and
 * {@link TopicReplicationConfig}.
 *
 * <p>A {@code LogConfig} is immutable and thread-safe; {@link #withOverrides} derives a topic's
 * configuration. The effective values are resolved once, in the constructor, so that the append
 * path reads plain fields.
 */
public final class LogConfig extends AbstractConfig {

    // ---- broker settings -------------------------------------------------------------------

    public static final String LOG_DIRS_CONFIG = "log.dirs";
    static final String LOG_DIRS_DOC = "The directories in which partition logs are kept, comma separated. "
        + "New partitions go to the directory that holds the fewest.";

    public static final String LOG_SEGMENT_BYTES_CONFIG = "log.segment.bytes";
    static final String LOG_SEGMENT_BYTES_DOC = "The largest size of a segment file; an append that would pass it "
        + "starts a new segment.";

    public static final String LOG_ROLL_MS_CONFIG = "log.roll.ms";
    static final String LOG_ROLL_MS_DOC = "Start a new segment, even if the active one is not full, when an incoming "
        + "batch's timestamp is more than this after the active segment's first batch timestamp (the broker clock since "
        + "the segment was opened, for batches without timestamps), so that retention can delete old data in time.";

    public static final String LOG_RETENTION_HOURS_CONFIG = "log.retention.hours";
    static final String LOG_RETENTION_HOURS_DOC = "How long a closed segment is kept after its largest timestamp, in "
        + "hours. log.retention.ms wins when set.";

    public static final String LOG_RETENTION_MS_CONFIG = "log.retention.ms";
    static final String LOG_RETENTION_MS_DOC = "How long a closed segment is kept after its largest timestamp, in ms; "
        + "-1 keeps segments forever. Unset means log.retention.hours.";

    public static final String LOG_RETENTION_BYTES_CONFIG = "log.retention.bytes";
    static final String LOG_RETENTION_BYTES_DOC = "The size a partition's log is trimmed towards: its oldest closed "
        + "segment is deleted while the rest would still hold at least this many bytes (Kafka's rule); -1 means no "
        + "limit. The active segment is never deleted.";

    public static final String LOG_RETENTION_CHECK_INTERVAL_MS_CONFIG = "log.retention.check.interval.ms";
    static final String LOG_RETENTION_CHECK_INTERVAL_MS_DOC = "How often the broker looks for segments to delete.";

    public static final String LOG_SEGMENT_DELETE_DELAY_MS_CONFIG = "log.segment.delete.delay.ms";
    static final String LOG_SEGMENT_DELETE_DELAY_MS_DOC = "How long a deleted segment's files stay on disk (renamed "
        + "to .deleted) before they are removed, so that fetches already reading them can finish.";

    public static final String LOG_FLUSH_INTERVAL_MESSAGES_CONFIG = "log.flush.interval.messages";
    static final String LOG_FLUSH_INTERVAL_MESSAGES_DOC = "Fsync a partition's log once this many messages were "
        + "appended since the last fsync. With 1, a produce with acks=1 or all is answered only once the fsync covering "
        + "its records is done, so an acknowledged record survives a power loss; the fsync is still off the append path "
        + "and shared by every append that arrived meanwhile (group commit). Larger values are answered before the fsync.";

    public static final String LOG_FLUSH_INTERVAL_MS_CONFIG = "log.flush.interval.ms";
    static final String LOG_FLUSH_INTERVAL_MS_DOC = "Fsync a partition's log when it holds unflushed messages and "
        + "its last fsync is at least this long ago; checked every log.flush.scheduler.interval.ms.";

    public static final String LOG_FLUSH_SCHEDULER_INTERVAL_MS_CONFIG = "log.flush.scheduler.interval.ms";
    static final String LOG_FLUSH_SCHEDULER_INTERVAL_MS_DOC = "How often the broker checks log.flush.interval.ms. "
        + "(Kafka's default is Long.MAX_VALUE, which silently disables log.flush.interval.ms; Millrace checks every "
        + "second, which costs one pass over the partitions.)";

    public static final String LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS_CONFIG = "log.flush.offset.checkpoint.interval.ms";
    static final String LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS_DOC = "How often each log directory's "
        + "recovery-point-offset-checkpoint is rewritten; a fresher checkpoint means less to recover after a crash.";

    public static final String LOG_INDEX_INTERVAL_BYTES_CONFIG = "log.index.interval.bytes";
    static final String LOG_INDEX_INTERVAL_BYTES_DOC = "Bytes of batches between two offset index entries; a "
        + "smaller value makes the index denser and lookups scan less.";

    public static final String LOG_INDEX_SIZE_MAX_BYTES_CONFIG = "log.index.size.max.bytes";
    static final String LOG_INDEX_SIZE_MAX_BYTES_DOC = "The size each index file is preallocated to; a full index "
        + "starts a new segment.";

    public static final String MESSAGE_MAX_BYTES_CONFIG = "message.max.bytes";
    static final String MESSAGE_MAX_BYTES_DOC = "The largest record batch a partition accepts, header included. "
        + "(Kafka's broker name; the topic override is max.message.bytes.)";

    public static final String PRODUCER_ID_EXPIRATION_MS_CONFIG = "producer.id.expiration.ms";
    static final String PRODUCER_ID_EXPIRATION_MS_DOC = "How long a partition remembers an idempotent producer that "
        + "sends it nothing (its epoch and last five batches' sequence numbers). A producer forgotten this way is new "
        + "to the partition again: it starts at sequence 0 of an epoch (Kafka's producer and Millrace's raise the epoch "
        + "when refused) or, once the log has deleted records, anywhere. Checked on every retention pass "
        + "(log.retention.check.interval.ms).";

    public static final String LOG_CLEANUP_POLICY_CONFIG = "log.cleanup.policy";
    static final String LOG_CLEANUP_POLICY_DOC = "What happens to old records, a comma-separated list: delete removes "
        + "closed segments by retention.ms and retention.bytes; compact keeps only the last record of each key (and "
        + "removes a key's tombstone, a record with a null value, once delete.retention.ms has passed); compact,delete "
        + "does both. A compacted topic refuses records without a key.";

    /** Cleanup policies: Kafka's names. */
    public static final String CLEANUP_POLICY_DELETE = "delete";
    public static final String CLEANUP_POLICY_COMPACT = "compact";

    // ---- topic overrides -------------------------------------------------------------------

    public static final String SEGMENT_BYTES_CONFIG = "segment.bytes";
    public static final String SEGMENT_MS_CONFIG = "segment.ms";
    public static final String RETENTION_MS_CONFIG = "retention.ms";
    public static final String RETENTION_BYTES_CONFIG = "retention.bytes";
    public static final String FLUSH_MESSAGES_CONFIG = "flush.messages";
    public static final String FLUSH_MS_CONFIG = "flush.ms";
    public static final String MAX_MESSAGE_BYTES_CONFIG = "max.message.bytes";
    public static final String INDEX_INTERVAL_BYTES_CONFIG = "index.interval.bytes";
    public static final String SEGMENT_INDEX_BYTES_CONFIG = "segment.index.bytes";
    public static final String FILE_DELETE_DELAY_MS_CONFIG = "file.delete.delay.ms";
    public static final String CLEANUP_POLICY_CONFIG = "cleanup.policy";

    /** 1 MiB plus Kafka's historical 12-byte log overhead, as Kafka. */
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 1024 * 1024 + RecordBatch.LOG_OVERHEAD;
    private static final long HOUR_MS = 60L * 60 * 1000;

    public static final ConfigDef BROKER_CONFIG = LogCleanerConfig.defineBrokerSettings(
        TopicReplicationConfig.defineBrokerSettings(MessageTimestampConfig.defineBrokerSettings(new ConfigDef()
        .define(LOG_DIRS_CONFIG, Type.LIST, "/tmp/millrace-logs", Importance.HIGH, LOG_DIRS_DOC)
        .define(LOG_SEGMENT_BYTES_CONFIG, Type.INT, 1024 * 1024 * 1024, Range.atLeast(RecordBatch.HEADER_SIZE),
            Importance.HIGH, LOG_SEGMENT_BYTES_DOC)
        .define(LOG_ROLL_MS_CONFIG, Type.LONG, 168 * HOUR_MS, Range.atLeast(1), Importance.HIGH, LOG_ROLL_MS_DOC)
        .define(LOG_RETENTION_HOURS_CONFIG, Type.INT, 168, Range.atLeast(-1), Importance.HIGH, LOG_RETENTION_HOURS_DOC)
        .define(LOG_RETENTION_MS_CONFIG, Type.LONG, null, Range.atLeast(-1), Importance.HIGH, LOG_RETENTION_MS_DOC)
        .define(LOG_RETENTION_BYTES_CONFIG, Type.LONG, -1L, Range.atLeast(-1), Importance.HIGH, LOG_RETENTION_BYTES_DOC)
        .define(LOG_RETENTION_CHECK_INTERVAL_MS_CONFIG, Type.LONG, 300_000L, Range.atLeast(1), Importance.MEDIUM,
            LOG_RETENTION_CHECK_INTERVAL_MS_DOC)
        .define(LOG_SEGMENT_DELETE_DELAY_MS_CONFIG, Type.LONG, 60_000L, Range.atLeast(0), Importance.LOW,
            LOG_SEGMENT_DELETE_DELAY_MS_DOC)
        .define(LOG_FLUSH_INTERVAL_MESSAGES_CONFIG, Type.LONG, Long.MAX_VALUE, Range.atLeast(1), Importance.HIGH,
            LOG_FLUSH_INTERVAL_MESSAGES_DOC)
        .define(LOG_FLUSH_INTERVAL_MS_CONFIG, Type.LONG, Long.MAX_VALUE, Range.atLeast(0), Importance.HIGH,
            LOG_FLUSH_INTERVAL_MS_DOC)
        .define(LOG_FLUSH_SCHEDULER_INTERVAL_MS_CONFIG, Type.LONG, 1000L, Range.atLeast(1), Importance.MEDIUM,
            LOG_FLUSH_SCHEDULER_INTERVAL_MS_DOC)
        .define(LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS_CONFIG, Type.LONG, 60_000L, Range.atLeast(1), Importance.MEDIUM,
            LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS_DOC)
        .define(LOG_INDEX_INTERVAL_BYTES_CONFIG, Type.INT, 4096, Range.atLeast(0), Importance.MEDIUM,
            LOG_INDEX_INTERVAL_BYTES_DOC)
        .define(LOG_INDEX_SIZE_MAX_BYTES_CONFIG, Type.INT, 10 * 1024 * 1024, Range.atLeast(4 * OffsetIndex.ENTRY_SIZE),
            Importance.MEDIUM, LOG_INDEX_SIZE_MAX_BYTES_DOC)
        .define(MESSAGE_MAX_BYTES_CONFIG, Type.INT, DEFAULT_MAX_MESSAGE_BYTES, Range.atLeast(RecordBatch.HEADER_SIZE),
            Importance.HIGH, MESSAGE_MAX_BYTES_DOC)
        .define(PRODUCER_ID_EXPIRATION_MS_CONFIG, Type.LONG, 24 * HOUR_MS, Range.atLeast(1), Importance.LOW,
            PRODUCER_ID_EXPIRATION_MS_DOC)
        .define(LOG_CLEANUP_POLICY_CONFIG, Type.STRING, CLEANUP_POLICY_DELETE, cleanupPolicies(), Importance.MEDIUM,
            LOG_CLEANUP_POLICY_DOC))));

    public static final ConfigDef TOPIC_CONFIG = LogCleanerConfig.defineTopicSettings(
        TopicReplicationConfig.defineTopicSettings(MessageTimestampConfig.defineTopicSettings(new ConfigDef()
        .define(SEGMENT_BYTES_CONFIG, Type.INT, null, Range.atLeast(RecordBatch.HEADER_SIZE), Importance.MEDIUM,
            overrides(LOG_SEGMENT_BYTES_CONFIG))
        .define(SEGMENT_MS_CONFIG, Type.LONG, null, Range.atLeast(1), Importance.MEDIUM, overrides(LOG_ROLL_MS_CONFIG))
        .define(RETENTION_MS_CONFIG, Type.LONG, null, Range.atLeast(-1), Importance.MEDIUM,
            overrides(LOG_RETENTION_MS_CONFIG + " (and " + LOG_RETENTION_HOURS_CONFIG + ")"))
        .define(RETENTION_BYTES_CONFIG, Type.LONG, null, Range.atLeast(-1), Importance.MEDIUM,
            overrides(LOG_RETENTION_BYTES_CONFIG))
        .define(FLUSH_MESSAGES_CONFIG, Type.LONG, null, Range.atLeast(1), Importance.MEDIUM,
            overrides(LOG_FLUSH_INTERVAL_MESSAGES_CONFIG))
        .define(FLUSH_MS_CONFIG, Type.LONG, null, Range.atLeast(0), Importance.MEDIUM,
            overrides(LOG_FLUSH_INTERVAL_MS_CONFIG))
        .define(MAX_MESSAGE_BYTES_CONFIG, Type.INT, null, Range.atLeast(RecordBatch.HEADER_SIZE), Importance.MEDIUM,
            overrides(MESSAGE_MAX_BYTES_CONFIG))
        .define(INDEX_INTERVAL_BYTES_CONFIG, Type.INT, null, Range.atLeast(0), Importance.LOW,
            overrides(LOG_INDEX_INTERVAL_BYTES_CONFIG))
        .define(SEGMENT_INDEX_BYTES_CONFIG, Type.INT, null, Range.atLeast(4 * OffsetIndex.ENTRY_SIZE), Importance.LOW,
            overrides(LOG_INDEX_SIZE_MAX_BYTES_CONFIG))
        .define(FILE_DELETE_DELAY_MS_CONFIG, Type.LONG, null, Range.atLeast(0), Importance.LOW,
            overrides(LOG_SEGMENT_DELETE_DELAY_MS_CONFIG))
        .define(CLEANUP_POLICY_CONFIG, Type.STRING, null, cleanupPolicies(), Importance.MEDIUM,
            overrides(LOG_CLEANUP_POLICY_CONFIG)))));

    /** Kafka's cleanup policies: a comma-separated list of compact and delete, at least one. */
    private static ConfigDef.Validator cleanupPolicies() {
        return ConfigDef.Validator.described("[compact, delete]", (name, value) -> {
            if (value != null) {
                CleanupPolicy.parse(name, String.valueOf(value));
            }
        });
    }

    private final Map<String, Object> topicOverrides;
    private final int segmentBytes;
    private final long segmentMs;
    private final long retentionMs;
    private final long retentionBytes;
    private final long flushMessages;
    private final long flushMs;
    private final int maxMessageBytes;
    private final TimestampType timestampType;
    private final long timestampAfterMaxMs;
    private final long timestampBeforeMaxMs;
    private final int indexIntervalBytes;
    private final int maxIndexSize;
    private final long fileDeleteDelayMs;
    private final int minInSyncReplicas;
    private final boolean uncleanLeaderElectionEnable;
    private final CleanupPolicy cleanupPolicy;
    private final double minCleanableRatio;
    private final long deleteRetentionMs;
    private final long minCompactionLagMs;
    private final long maxCompactionLagMs;

    /** Broker settings from {@code props}; undeclared keys are kept in {@link #originals()} and ignored. */
    public LogConfig(Map<?, ?> props) {
        this(props, Map.of());
    }

    private LogConfig(Map<?, ?> props, Map<?, ?> overrides) {
        super(BROKER_CONFIG, props);
        this.topicOverrides = TOPIC_CONFIG.parse(overrides);
        this.segmentBytes = (Integer) effective(SEGMENT_BYTES_CONFIG, get(LOG_SEGMENT_BYTES_CONFIG));
        this.segmentMs = (Long) effective(SEGMENT_MS_CONFIG, get(LOG_ROLL_MS_CONFIG));
        this.retentionMs = (Long) effective(RETENTION_MS_CONFIG, brokerRetentionMs());
        this.retentionBytes = (Long) effective(RETENTION_BYTES_CONFIG, get(LOG_RETENTION_BYTES_CONFIG));
        this.flushMessages = (Long) effective(FLUSH_MESSAGES_CONFIG, get(LOG_FLUSH_INTERVAL_MESSAGES_CONFIG));
        this.flushMs = (Long) effective(FLUSH_MS_CONFIG, get(LOG_FLUSH_INTERVAL_MS_CONFIG));
        this.maxMessageBytes = (Integer) effective(MAX_MESSAGE_BYTES_CONFIG, get(MESSAGE_MAX_BYTES_CONFIG));
        this.timestampType = TimestampType.forName((String) effective(MESSAGE_TIMESTAMP_TYPE_CONFIG,
            get(LOG_MESSAGE_TIMESTAMP_TYPE_CONFIG)));
        this.timestampAfterMaxMs = (Long) effective(MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG,
            get(LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG));
        this.timestampBeforeMaxMs = (Long) effective(MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG,
            get(LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG));
        this.indexIntervalBytes = (Integer) effective(INDEX_INTERVAL_BYTES_CONFIG, get(LOG_INDEX_INTERVAL_BYTES_CONFIG));
        this.maxIndexSize = (Integer) effective(SEGMENT_INDEX_BYTES_CONFIG, get(LOG_INDEX_SIZE_MAX_BYTES_CONFIG));
        this.fileDeleteDelayMs = (Long) effective(FILE_DELETE_DELAY_MS_CONFIG, get(LOG_SEGMENT_DELETE_DELAY_MS_CONFIG));
        this.minInSyncReplicas = (Integer) effective(MIN_INSYNC_REPLICAS_CONFIG, get(MIN_INSYNC_REPLICAS_CONFIG));
        this.uncleanLeaderElectionEnable = (Boolean) effective(UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG,
            get(UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG));
        this.cleanupPolicy = CleanupPolicy.parse(CLEANUP_POLICY_CONFIG,
            (String) effective(CLEANUP_POLICY_CONFIG, get(LOG_CLEANUP_POLICY_CONFIG)));
        this.minCleanableRatio = (Double) effective(LogCleanerConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG,
            get(LogCleanerConfig.LOG_CLEANER_MIN_CLEANABLE_RATIO_CONFIG));
        this.deleteRetentionMs = (Long) effective(LogCleanerConfig.DELETE_RETENTION_MS_CONFIG,
            get(LogCleanerConfig.LOG_CLEANER_DELETE_RETENTION_MS_CONFIG));
        this.minCompactionLagMs = (Long) effective(LogCleanerConfig.MIN_COMPACTION_LAG_MS_CONFIG,
            get(LogCleanerConfig.LOG_CLEANER_MIN_COMPACTION_LAG_MS_CONFIG));
        this.maxCompactionLagMs = (Long) effective(LogCleanerConfig.MAX_COMPACTION_LAG_MS_CONFIG,
            get(LogCleanerConfig.LOG_CLEANER_MAX_COMPACTION_LAG_MS_CONFIG));
    }

    /** Every setting at its default. */
    public static LogConfig defaults() {
        return new LogConfig(Map.of());
    }

    /**
     * This broker configuration with a topic's overrides on top, given under the topic names
     * ({@code retention.ms}, ...). Throws {@link ConfigException} for a bad value or a key that is
     * not a topic setting, so that a typo does not silently fall back to the broker default.
     */
    public LogConfig withOverrides(Map<?, ?> overrides) {
        for (Object key : overrides.keySet()) {
            if (TOPIC_CONFIG.key(String.valueOf(key)) == null) {
                throw new ConfigException("Unknown topic configuration " + key);
            }
        }
        Map<Object, Object> merged = new HashMap<>(topicOverridesGiven());
        merged.putAll(overrides);
        return new LogConfig(originals(), merged);
    }

    private Map<String, Object> topicOverridesGiven() {
        Map<String, Object> given = new HashMap<>();
        topicOverrides.forEach((k, v) -> {
            if (v != null) {
                given.put(k, v);
            }
        });
        return given;
    }

    /** The topic's override if set, else the broker's value. */
    private Object effective(String topicName, Object brokerValue) {
        Object override = topicOverrides.get(topicName);
        return override != null ? override : brokerValue;
    }

    private long brokerRetentionMs() {
        Object ms = get(LOG_RETENTION_MS_CONFIG);
        if (ms != null) {
            return (Long) ms;
        }
        int hours = getInt(LOG_RETENTION_HOURS_CONFIG);
        return hours < 0 ? -1L : hours * HOUR_MS;
    }

    static String overrides(String brokerName) {
        return "Per-topic override of " + brokerName + "; see there.";
    }

    public List<Path> logDirs() {
        return getList(LOG_DIRS_CONFIG).stream().map(Path::of).toList();
    }

    public int segmentBytes() {
        return segmentBytes;
    }

    public long segmentMs() {
        return segmentMs;
    }

    /** Milliseconds a segment is kept after its newest timestamp; -1 for ever. */
    public long retentionMs() {
        return retentionMs;
    }

    /** Bytes a partition may hold before its oldest segments go; -1 for no limit. */
    public long retentionBytes() {
        return retentionBytes;
    }

    public long flushMessages() {
        return flushMessages;
    }

    public long flushMs() {
        return flushMs;
    }

    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    public long timestampAfterMaxMs() {
        return timestampAfterMaxMs;
    }

    public long timestampBeforeMaxMs() {
        return timestampBeforeMaxMs;
    }

    public TimestampType timestampType() {
        return timestampType;
    }

    public int indexIntervalBytes() {
        return indexIntervalBytes;
    }

    public int maxIndexSize() {
        return maxIndexSize;
    }

    public long fileDeleteDelayMs() {
        return fileDeleteDelayMs;
    }

    public long retentionCheckIntervalMs() {
        return getLong(LOG_RETENTION_CHECK_INTERVAL_MS_CONFIG);
    }

    /** How long an idle idempotent producer is remembered; a broker setting with no topic override. */
    public long producerIdExpirationMs() {
        return getLong(PRODUCER_ID_EXPIRATION_MS_CONFIG);
    }

    public long flushSchedulerIntervalMs() {
        return getLong(LOG_FLUSH_SCHEDULER_INTERVAL_MS_CONFIG);
    }

    public long flushCheckpointIntervalMs() {
        return getLong(LOG_FLUSH_OFFSET_CHECKPOINT_INTERVAL_MS_CONFIG);
    }

    /** In-sync replicas (the leader included) an acks=all produce needs. */
    public int minInSyncReplicas() {
        return minInSyncReplicas;
    }

    /** Whether a replica out of sync may lead when no in-sync replica is live. */
    public boolean uncleanLeaderElectionEnable() {
        return uncleanLeaderElectionEnable;
    }

    public CleanupPolicy cleanupPolicy() {
        return cleanupPolicy;
    }

    /** The share of dirty bytes at which a compacted partition is cleaned. */
    public double minCleanableRatio() {
        return minCleanableRatio;
    }

    /** How long a tombstone outlives its segment's largest timestamp. */
    public long deleteRetentionMs() {
        return deleteRetentionMs;
    }

    public long minCompactionLagMs() {
        return minCompactionLagMs;
    }

    public long maxCompactionLagMs() {
        return maxCompactionLagMs;
    }

    public boolean cleanerEnabled() {
        return getBoolean(LogCleanerConfig.LOG_CLEANER_ENABLE_CONFIG);
    }

    public long cleanerBackoffMs() {
        return getLong(LogCleanerConfig.LOG_CLEANER_BACKOFF_MS_CONFIG);
    }

    public long cleanerDedupeBufferSize() {
        return getLong(LogCleanerConfig.LOG_CLEANER_DEDUPE_BUFFER_SIZE_CONFIG);
    }

    /** The topic overrides that are set, under their topic names. */
    public Map<String, Object> overrides() {
        return Map.copyOf(topicOverridesGiven());
    }

    /** The broker setting a topic setting overrides (Kafka's synonym), e.g. log.retention.ms for retention.ms. */
    public static String brokerSynonym(String topicKey) {
        return switch (topicKey) {
            case SEGMENT_BYTES_CONFIG -> LOG_SEGMENT_BYTES_CONFIG;
            case SEGMENT_MS_CONFIG -> LOG_ROLL_MS_CONFIG;
            case RETENTION_MS_CONFIG -> LOG_RETENTION_MS_CONFIG;
            case RETENTION_BYTES_CONFIG -> LOG_RETENTION_BYTES_CONFIG;
            case FLUSH_MESSAGES_CONFIG -> LOG_FLUSH_INTERVAL_MESSAGES_CONFIG;
            case FLUSH_MS_CONFIG -> LOG_FLUSH_INTERVAL_MS_CONFIG;
            case MAX_MESSAGE_BYTES_CONFIG -> MESSAGE_MAX_BYTES_CONFIG;
            case MESSAGE_TIMESTAMP_TYPE_CONFIG -> LOG_MESSAGE_TIMESTAMP_TYPE_CONFIG;
            case MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG -> LOG_MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG;
            case MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG -> LOG_MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG;
            case INDEX_INTERVAL_BYTES_CONFIG -> LOG_INDEX_INTERVAL_BYTES_CONFIG;
            case SEGMENT_INDEX_BYTES_CONFIG -> LOG_INDEX_SIZE_MAX_BYTES_CONFIG;
            case FILE_DELETE_DELAY_MS_CONFIG -> LOG_SEGMENT_DELETE_DELAY_MS_CONFIG;
            case CLEANUP_POLICY_CONFIG -> LOG_CLEANUP_POLICY_CONFIG;
            case LogCleanerConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG -> LogCleanerConfig.LOG_CLEANER_MIN_CLEANABLE_RATIO_CONFIG;
            case LogCleanerConfig.DELETE_RETENTION_MS_CONFIG -> LogCleanerConfig.LOG_CLEANER_DELETE_RETENTION_MS_CONFIG;
            case LogCleanerConfig.MIN_COMPACTION_LAG_MS_CONFIG -> LogCleanerConfig.LOG_CLEANER_MIN_COMPACTION_LAG_MS_CONFIG;
            case LogCleanerConfig.MAX_COMPACTION_LAG_MS_CONFIG -> LogCleanerConfig.LOG_CLEANER_MAX_COMPACTION_LAG_MS_CONFIG;
            case MIN_INSYNC_REPLICAS_CONFIG, UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG -> topicKey; // Kafka's names are the same
            default -> throw new IllegalArgumentException("Not a topic setting: " + topicKey);
        };
    }

    /** The value in force for a topic setting, as Kafka's tools print it: the override, else the broker's. */
    public String effectiveValue(String topicKey) {
        return switch (topicKey) {
            case SEGMENT_BYTES_CONFIG -> Integer.toString(segmentBytes);
            case SEGMENT_MS_CONFIG -> Long.toString(segmentMs);
            case RETENTION_MS_CONFIG -> Long.toString(retentionMs);
            case RETENTION_BYTES_CONFIG -> Long.toString(retentionBytes);
            case FLUSH_MESSAGES_CONFIG -> Long.toString(flushMessages);
            case FLUSH_MS_CONFIG -> Long.toString(flushMs);
            case MAX_MESSAGE_BYTES_CONFIG -> Integer.toString(maxMessageBytes);
            case MESSAGE_TIMESTAMP_TYPE_CONFIG -> timestampType.displayName;
            case MESSAGE_TIMESTAMP_AFTER_MAX_MS_CONFIG -> Long.toString(timestampAfterMaxMs);
            case MESSAGE_TIMESTAMP_BEFORE_MAX_MS_CONFIG -> Long.toString(timestampBeforeMaxMs);
            case INDEX_INTERVAL_BYTES_CONFIG -> Integer.toString(indexIntervalBytes);
            case SEGMENT_INDEX_BYTES_CONFIG -> Integer.toString(maxIndexSize);
            case FILE_DELETE_DELAY_MS_CONFIG -> Long.toString(fileDeleteDelayMs);
            case MIN_INSYNC_REPLICAS_CONFIG -> Integer.toString(minInSyncReplicas);
            case UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG -> Boolean.toString(uncleanLeaderElectionEnable);
            case CLEANUP_POLICY_CONFIG -> cleanupPolicy.toString();
            case LogCleanerConfig.MIN_CLEANABLE_DIRTY_RATIO_CONFIG -> Double.toString(minCleanableRatio);
            case LogCleanerConfig.DELETE_RETENTION_MS_CONFIG -> Long.toString(deleteRetentionMs);
            case LogCleanerConfig.MIN_COMPACTION_LAG_MS_CONFIG -> Long.toString(minCompactionLagMs);
            case LogCleanerConfig.MAX_COMPACTION_LAG_MS_CONFIG -> Long.toString(maxCompactionLagMs);
            default -> throw new IllegalArgumentException("Not a topic setting: " + topicKey);
        };
    }

    /** Whether the broker's properties set {@code brokerKey} (log.retention.hours counts for log.retention.ms). */
    public boolean brokerSets(String brokerKey) {
        return originals().containsKey(brokerKey)
            || LOG_RETENTION_MS_CONFIG.equals(brokerKey) && originals().containsKey(LOG_RETENTION_HOURS_CONFIG);
    }
}
