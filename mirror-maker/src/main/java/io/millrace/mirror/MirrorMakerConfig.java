package io.millrace.mirror;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigException;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import io.millrace.common.config.ConfigDef.ValidString;
import io.millrace.common.config.ConfigDef.Validator;
import java.util.Map;

/**
 * The mirror's own settings, Kafka MirrorMaker's names where the meaning is the same. Each live
 * cluster's consumer settings and the offline cluster's producer settings come in files of their own
 * ({@code --consumer.config}, {@code --producer.config}).
 */
public final class MirrorMakerConfig extends AbstractConfig {

    public static final String WHITELIST_CONFIG = "whitelist";
    static final String WHITELIST_DOC = "The topics to mirror: a Java regular expression matched against whole topic "
        + "names. Topics created later that match are mirrored without a restart.";

    public static final String BLACKLIST_CONFIG = "blacklist";
    static final String BLACKLIST_DOC = "Topics not to mirror although the whitelist matches them: a Java regular "
        + "expression, empty for none.";

    public static final String NUM_STREAMS_CONFIG = "num.streams";
    static final String NUM_STREAMS_DOC = "Mirror threads per live cluster, each an embedded group consumer of its own "
        + "in the cluster's group: the partitions are split between them (and between mirror processes with the "
        + "same group.id) by the group's assignment.";

    public static final String OFFSET_COMMIT_INTERVAL_MS_CONFIG = "offset.commit.interval.ms";
    static final String OFFSET_COMMIT_INTERVAL_MS_DOC = "How often each mirror thread flushes the producer and then "
        + "commits, in the live cluster, the offsets of every record the offline cluster acknowledged. After a crash "
        + "the mirror reads again at most what came after the last commit, and does not write again what of it the "
        + "offline cluster already holds (see duplicate.check.max.records).";

    public static final String PARTITION_PLACEMENT_CONFIG = "partition.placement";
    static final String PARTITION_PLACEMENT_DOC = "Where a record goes in the offline cluster: source (the partition "
        + "number it had, so order per partition is kept; the offline topic needs at least as many partitions) or key "
        + "(the producer's partitioner, by key hash).";
    public static final String PLACEMENT_SOURCE = "source";
    public static final String PLACEMENT_KEY = "key";

    public static final String LOST_RANGE_POLICY_CONFIG = "lost.range.policy";
    static final String LOST_RANGE_POLICY_DOC = "What the mirror does when a live partition no longer holds the offset it "
        + "was to copy next (retention deleted records before they were mirrored): continue (log the lost range with "
        + "its cluster, topic, partition, first and last missing offset and count, count it, and go on where the "
        + "consumer's auto.offset.reset says) or stop (the same report, then the stream stops and commits nothing more).";
    public static final String LOST_CONTINUE = "continue";
    public static final String LOST_STOP = "stop";

    public static final String TOPIC_RENAME_CONFIG = "topic.rename";
    static final String TOPIC_RENAME_DOC = "The offline name of a mirrored topic: none (the live name, so the offline "
        + "cluster aggregates a topic from every live data centre, as in the paper) or prefix (<cluster.name>.<topic>, "
        + "one offline topic per live data centre, as Kafka MirrorMaker 2 names them).";
    public static final String RENAME_NONE = "none";
    public static final String RENAME_PREFIX = "prefix";

    public static final String CREATE_TOPICS_CONFIG = "create.topics";
    static final String CREATE_TOPICS_DOC = "Create a mirrored topic in the offline cluster on first sight, with the "
        + "live topic's partition count, and add partitions to it when the live topic grows. When false the topics must "
        + "exist, with enough partitions.";

    public static final String DUPLICATE_CHECK_MAX_RECORDS_CONFIG = "duplicate.check.max.records";
    static final String DUPLICATE_CHECK_MAX_RECORDS_DOC = "When a mirror thread takes a live partition over (a restart, "
        + "a rebalance, another mirror's death) it finds the records it reads again that the offline partition "
        + "already holds (sent before the last commit), counts them (the Duplicates metric and the log) and does not "
        + "write them again: it reads at most this many of the offline partition's latest records to compare with; "
        + "an older re-copy is written again. 0 turns the check off (every record read again is written again). "
        + "Checked with partition.placement=source and no message.handler only.";

    public static final String BATCH_COPY_ENABLED_CONFIG = "batch.copy.enabled";
    static final String BATCH_COPY_ENABLED_DOC = "Copy the fetched record batches without decoding their records "
        + "into objects and encoding them again, several times less work per record: an uncompressed live batch's "
        + "records join the offline producer's batch, their bytes copied and only their offset and timestamp deltas "
        + "written again (so batch.size, linger.ms and compression.type apply as to records); a compressed live batch "
        + "goes whole, its codec kept, the live producer's id, epoch and sequence cleared. Keys, values, headers and "
        + "timestamps are kept either way, and schema ids, counts and audit are still read from every record. A batch "
        + "is copied record by record when it cannot be copied so: with partition.placement=key, for LogAppendTime, "
        + "transactional or compacted batches, for a batch that starts before the offset to copy from (a restart "
        + "inside it), while the duplicates check of a partition just taken over runs, and always with a "
        + "message.handler.";

    public static final String SYNC_TOPIC_CONFIGS_ENABLED_CONFIG = "sync.topic.configs.enabled";
    static final String SYNC_TOPIC_CONFIGS_ENABLED_DOC = "Create each offline topic with the settings its live topic "
        + "sets itself (retention.ms, max.message.bytes, ...: the overrides DescribeConfigs reports as the topic's), "
        + "less config.properties.exclude. Settings are copied when the mirror creates the topic, not later.";

    public static final String CONFIG_PROPERTIES_EXCLUDE_CONFIG = "config.properties.exclude";
    static final String CONFIG_PROPERTIES_EXCLUDE_DOC = "Topic settings never copied: by default those about timestamps "
        + "(the mirror keeps each record's own time, which LogAppendTime would overwrite and the timestamp bounds could "
        + "refuse for old records) and those about replicas, which belong to the offline cluster.";
    static final String DEFAULT_CONFIG_PROPERTIES_EXCLUDE = "message.timestamp.type,message.timestamp.after.max.ms,"
        + "message.timestamp.before.max.ms,message.timestamp.difference.max.ms,min.insync.replicas,"
        + "unclean.leader.election.enable,follower.replication.throttled.replicas,leader.replication.throttled.replicas";

    public static final String AUDIT_ENABLED_CONFIG = "audit.enabled";
    static final String AUDIT_ENABLED_DOC = "Publish the mirror's audit counts to the offline cluster's audit topic: per "
        + "live cluster, topic and window, what the mirror read (tier live) and what the offline cluster acknowledged "
        + "(tier offline), released only after the live offsets they cover are committed, and every lost range. The "
        + "audit settings (audit.topic, audit.window.ms, ...; see docs/audit.md) may be given here too.";

    public static final String MESSAGE_HANDLER_CONFIG = "message.handler";
    static final String MESSAGE_HANDLER_DOC = "A class implementing io.millrace.mirror.MirrorMessageHandler, with a public "
        + "no-argument constructor, that turns each live record into the records written offline: none (a filter), "
        + "changed copies, or several; empty for none (each record copied as it is). Each mirror thread gets an "
        + "instance of its own. With a handler records are copied one by one, never as whole batches, and no "
        + "duplicates are counted; a live offset is still committed only once every record the handler returned "
        + "for it was acknowledged. The audit's offline tier counts what the offline cluster acknowledged, so the "
        + "records a handler drops are reported missing there (and downstream): to leave topics out, use the "
        + "whitelist and blacklist.";

    public static final String MESSAGE_HANDLER_ARGS_CONFIG = "message.handler.args";
    static final String MESSAGE_HANDLER_ARGS_DOC = "The string given to the message.handler's configure method, "
        + "as it is; empty when not set.";

    private static final Validator REGEX = Validator.regex();

    public static final ConfigDef CONFIG = new ConfigDef()
        .define(WHITELIST_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT, REGEX, Importance.HIGH, WHITELIST_DOC)
        .define(BLACKLIST_CONFIG, Type.STRING, "", REGEX, Importance.MEDIUM, BLACKLIST_DOC)
        .define(NUM_STREAMS_CONFIG, Type.INT, 1, Range.atLeast(1), Importance.MEDIUM, NUM_STREAMS_DOC)
        .define(OFFSET_COMMIT_INTERVAL_MS_CONFIG, Type.LONG, 60_000L, Range.atLeast(1), Importance.MEDIUM,
            OFFSET_COMMIT_INTERVAL_MS_DOC)
        .define(PARTITION_PLACEMENT_CONFIG, Type.STRING, PLACEMENT_SOURCE, ValidString.in(PLACEMENT_SOURCE, PLACEMENT_KEY),
            Importance.MEDIUM, PARTITION_PLACEMENT_DOC)
        .define(CREATE_TOPICS_CONFIG, Type.BOOLEAN, true, Importance.MEDIUM, CREATE_TOPICS_DOC)
        .define(TOPIC_RENAME_CONFIG, Type.STRING, RENAME_NONE, ValidString.in(RENAME_NONE, RENAME_PREFIX),
            Importance.MEDIUM, TOPIC_RENAME_DOC)
        .define(LOST_RANGE_POLICY_CONFIG, Type.STRING, LOST_CONTINUE, ValidString.in(LOST_CONTINUE, LOST_STOP),
            Importance.MEDIUM, LOST_RANGE_POLICY_DOC)
        .define(DUPLICATE_CHECK_MAX_RECORDS_CONFIG, Type.INT, 100_000, Range.atLeast(0), Importance.LOW,
            DUPLICATE_CHECK_MAX_RECORDS_DOC)
        .define(BATCH_COPY_ENABLED_CONFIG, Type.BOOLEAN, true, Importance.MEDIUM, BATCH_COPY_ENABLED_DOC)
        .define(SYNC_TOPIC_CONFIGS_ENABLED_CONFIG, Type.BOOLEAN, true, Importance.MEDIUM, SYNC_TOPIC_CONFIGS_ENABLED_DOC)
        .define(AUDIT_ENABLED_CONFIG, Type.BOOLEAN, false, Importance.MEDIUM, AUDIT_ENABLED_DOC)
        .define(MESSAGE_HANDLER_CONFIG, Type.STRING, "", Importance.MEDIUM, MESSAGE_HANDLER_DOC)
        .define(MESSAGE_HANDLER_ARGS_CONFIG, Type.STRING, "", Importance.LOW, MESSAGE_HANDLER_ARGS_DOC)
        .define(CONFIG_PROPERTIES_EXCLUDE_CONFIG, Type.LIST, DEFAULT_CONFIG_PROPERTIES_EXCLUDE, Importance.LOW,
            CONFIG_PROPERTIES_EXCLUDE_DOC);

    public MirrorMakerConfig(Map<?, ?> props) {
        super(CONFIG, props);
    }

    /**
     * The topics to mirror as one regular expression for the group consumer's filter: whitelisted and
     * not blacklisted.
     */
    public String topicFilter() {
        String whitelist = getString(WHITELIST_CONFIG);
        String blacklist = getString(BLACKLIST_CONFIG);
        return blacklist.isEmpty() ? whitelist : "(?!(?:" + blacklist + ")$)(?:" + whitelist + ")";
    }

    public int numStreams() {
        return getInt(NUM_STREAMS_CONFIG);
    }

    public long commitIntervalMs() {
        return getLong(OFFSET_COMMIT_INTERVAL_MS_CONFIG);
    }

    public boolean keepsPartitions() {
        return PLACEMENT_SOURCE.equals(getString(PARTITION_PLACEMENT_CONFIG));
    }

    /** Whether a lost range stops the stream. */
    public boolean stopOnLostRange() {
        return LOST_STOP.equals(getString(LOST_RANGE_POLICY_CONFIG));
    }

    /** The offline name of {@code topic} from the live cluster {@code cluster}. */
    public String offlineTopic(String cluster, String topic) {
        return RENAME_PREFIX.equals(getString(TOPIC_RENAME_CONFIG)) ? cluster + "." + topic : topic;
    }

    public boolean auditEnabled() {
        return getBoolean(AUDIT_ENABLED_CONFIG);
    }

    /** The audit.* settings given with the mirror's own (the audit publisher's). */
    public Map<String, Object> auditSettings() {
        Map<String, Object> audit = new java.util.HashMap<>();
        originals().forEach((key, value) -> {
            String name = String.valueOf(key);
            if (name.startsWith("audit.") && !name.equals(AUDIT_ENABLED_CONFIG)) {
                audit.put(name, value);
            }
        });
        return audit;
    }

    public boolean syncTopicConfigs() {
        return getBoolean(SYNC_TOPIC_CONFIGS_ENABLED_CONFIG);
    }

    public java.util.Set<String> topicConfigsExcluded() {
        return java.util.Set.copyOf(getList(CONFIG_PROPERTIES_EXCLUDE_CONFIG));
    }

    public int duplicateCheckMaxRecords() {
        return getInt(DUPLICATE_CHECK_MAX_RECORDS_CONFIG);
    }

    /** Whether fetched batches are copied whole where they can be. */
    public boolean copiesBatches() {
        return getBoolean(BATCH_COPY_ENABLED_CONFIG);
    }

    public boolean hasMessageHandler() {
        return !getString(MESSAGE_HANDLER_CONFIG).isBlank();
    }

    /**
     * A new, configured instance of the {@code message.handler} class (one per mirror thread, so that
     * handlers need not be thread-safe); null when none is set.
     */
    public MirrorMessageHandler newMessageHandler() {
        if (!hasMessageHandler()) {
            return null;
        }
        String className = getString(MESSAGE_HANDLER_CONFIG).trim();
        MirrorMessageHandler handler;
        try {
            Class<?> type = Class.forName(className, true, classLoader());
            handler = (MirrorMessageHandler) type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
            throw new ConfigException(MESSAGE_HANDLER_CONFIG, className,
                "cannot make a MirrorMessageHandler of it (it needs a public no-argument constructor): " + e);
        }
        handler.configure(getString(MESSAGE_HANDLER_ARGS_CONFIG));
        return handler;
    }

    /** The context loader first: a handler may come with the application that embeds the mirror. */
    private static ClassLoader classLoader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : MirrorMakerConfig.class.getClassLoader();
    }

    public boolean createTopics() {
        return getBoolean(CREATE_TOPICS_CONFIG);
    }
}
