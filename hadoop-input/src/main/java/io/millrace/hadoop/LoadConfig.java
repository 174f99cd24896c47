package io.millrace.hadoop;

import io.millrace.audit.AuditConfig;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import io.millrace.common.config.ConfigDef.ValidString;
import io.millrace.common.config.ConfigDef.Validator;
import io.millrace.common.config.ConfigException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;

/**
 * Every setting of the Hadoop loader: the InputFormat, the load job and {@code bin/millrace load}.
 * Besides the settings declared here, any consumer setting ({@code max.partition.fetch.bytes}, ...)
 * and any {@code schema.registry.*} client setting is passed on to the partition reader and the
 * registry client, and any Hadoop setting ({@code fs.defaultFS}, {@code mapreduce.framework.name},
 * ...) goes into the job's configuration. Immutable and thread-safe.
 *
 * <p>Inside a job the settings travel in the Hadoop {@link Configuration}: {@link #writeTo} puts them
 * there under their own names and lists them under {@value #SETTINGS_KEY}; {@link #from(Configuration)}
 * reads them back in the tasks.
 */
public final class LoadConfig extends AbstractConfig {

    public static final String SCHEMA_REGISTRY_URL_CONFIG = "schema.registry.url";
    static final String SCHEMA_REGISTRY_URL_DOC = "The schema registry's base URLs, comma separated "
        + "(http://host:8081): where the writer's schema of every message is looked up by its id (once per id). "
        + "Needed by the load and by the InputFormat's avro value format.";

    public static final String DATA_ROOT_CONFIG = "millrace.hadoop.data.root";
    static final String DATA_ROOT_DOC = "Where loaded data lands, any Hadoop file system URI (hdfs://nn:8020/data/"
        + "millrace, file:///data/millrace): <data.root>/<topic>/hourly/yyyy/MM/dd/HH/ holds a topic's Avro files "
        + "by event hour. Needed by the load.";

    public static final String STATE_DIR_CONFIG = "millrace.hadoop.state.dir";
    static final String STATE_DIR_DOC = "The load's state directory, any Hadoop file system URI: the committed "
        + "manifests (offsets reached, files loaded), the summaries, the error output and each load's staging "
        + "directory. The InputFormat starts every partition where the newest committed manifest says. Use one "
        + "state directory per data root; never run two loads of one state directory at the same time.";

    public static final String TOPICS_CONFIG = "millrace.hadoop.topics";
    static final String TOPICS_DOC = "The topics to load, comma separated. Either this or "
        + "millrace.hadoop.topics.regex must be given; bin/millrace load --topics sets it.";

    public static final String TOPICS_REGEX_CONFIG = "millrace.hadoop.topics.regex";
    static final String TOPICS_REGEX_DOC = "A Java regular expression: every topic whose whole name matches is "
        + "loaded, in addition to millrace.hadoop.topics. Topics are listed once, when the load is planned.";

    public static final String MAX_SPLIT_RECORDS_CONFIG = "millrace.hadoop.max.split.records";
    static final String MAX_SPLIT_RECORDS_DOC = "The most offsets one map task reads. A partition with more new "
        + "offsets is cut into chunks of this size; partitions with fewer share a task until it holds this many.";

    public static final String MAX_ERROR_PERCENT_CONFIG = "millrace.hadoop.max.error.percent";
    static final String MAX_ERROR_PERCENT_DOC = "The share of undecodable messages, in percent of the messages a "
        + "load read, above which the load fails and commits nothing. Undecodable messages go to the error "
        + "output either way, with their topic, partition and offset; 0 fails a load on the first one.";

    public static final String CODEC_CONFIG = "millrace.hadoop.codec";
    static final String CODEC_DOC = "The compression codec of the Avro container files: snappy (fast) or deflate "
        + "(smaller).";

    public static final String DEFLATE_LEVEL_CONFIG = "millrace.hadoop.deflate.level";
    static final String DEFLATE_LEVEL_DOC = "The deflate level (1 fastest to 9 smallest) when the codec is deflate.";

    public static final String LAYOUT_CONFIG = "millrace.hadoop.layout";
    static final String LAYOUT_DOC = "How hour directories are named under <data.root>/<topic>/hourly/: "
        + "hourly is yyyy/MM/dd/HH, hive is year=yyyy/month=MM/day=dd/hour=HH (the partition columns of the Hive "
        + "tables). The Hive partitions a load registers, and those bin/millrace hive-ddl prints, point at "
        + "directories named this way. Keep it unchanged for a data root.";

    public static final String NEW_PARTITION_START_CONFIG = "millrace.hadoop.new.partition.start";
    static final String NEW_PARTITION_START_DOC = "Where a partition no load has read yet starts: earliest (the "
        + "first offset the broker still holds), or an ISO-8601 instant such as 2024-01-31T00:00:00Z (the first "
        + "message with a timestamp at or after it; the log end when there is none).";

    public static final String RECREATED_TOPIC_CONFIG = "millrace.hadoop.recreated.topic";
    static final String RECREATED_TOPIC_DOC = "What a load does when a topic it loaded before was deleted and "
        + "created again under the same name (its topic id changed, so the committed offsets count messages that "
        + "are gone): fail (load nothing and name the topic and both ids) or restart (drop the topic's old offsets "
        + "and read it like a new topic, from " + "millrace.hadoop.new.partition.start; the summary and the manifest "
        + "list it). Offsets committed before topic ids were kept cannot be checked.";
    public static final String RECREATED_FAIL = "fail";
    public static final String RECREATED_RESTART = "restart";

    public static final String VALUE_FORMAT_CONFIG = "millrace.hadoop.value.format";
    static final String VALUE_FORMAT_DOC = "What the InputFormat hands a mapper as the value: raw (the message's "
        + "bytes) or avro (also the decoded GenericRecord; undecodable messages go to the error output). The load "
        + "job reads neither: it takes each event's Avro bytes as they came, checked against the writer's schema, "
        + "and decodes only the event header's time.";

    /** Where {@link #writeTo} lists the names of the settings it put into a Hadoop configuration. */
    public static final String LOCK_LEASE_MS_CONFIG = "millrace.hadoop.lock.lease.ms";
    static final String LOCK_LEASE_MS_DOC = "How long the load lock in the state directory (load.lock) stays "
        + "another load's after its holder last renewed it. The holder renews it every quarter of this; a lock older "
        + "than this belongs to a load that died, and the next load takes it over. Loads that overlap anyway are "
        + "refused at the commit point.";

    public static final String AUDIT_ENABLED_CONFIG = AuditConfig.AUDIT_ENABLED_CONFIG;
    static final String AUDIT_ENABLED_DOC = "Count what each load loads, per topic and audit window of event time "
        + "(events, bytes, events without a time, undecodable messages, latency), keep the counts in its manifest, "
        + "and publish them to the audit topic, tier hadoop, only after the load's commit point, under ids taken "
        + "from the manifest, so that a load completed again after a crash is counted once. The audit topic is on "
        + "the cluster the load reads, its records are registered with schema.registry.url. The other audit "
        + "settings (audit.topic, audit.window.ms, audit.close.timeout.ms, ...; see docs/audit.md) may be given "
        + "here too.";

    public static final String AUDIT_CLUSTER_CONFIG = AuditConfig.AUDIT_CLUSTER_CONFIG;
    static final String AUDIT_CLUSTER_DOC = "The cluster name the load's audit counts are published under: the "
        + "offline cluster the load reads. The audit report holds a tier whose cluster has no producers against "
        + "all producers of the topic.";

    /** The audit tier of the load's counts. */
    public static final String AUDIT_TIER = "hadoop";

    public static final String SETTINGS_KEY = "millrace.hadoop.settings";

    public static final String EARLIEST = "earliest";

    private static final Validator INSTANT_OR_EARLIEST = Validator.described("earliest or an ISO-8601 instant",
        (name, value) -> parseStart(name, (String) value));
    private static final Validator REGEX = Validator.regex();

    public static final ConfigDef CONFIG = CommonClientConfigs.define(new ConfigDef(), 30_000)
        .define(SCHEMA_REGISTRY_URL_CONFIG, Type.LIST, "", Importance.HIGH, SCHEMA_REGISTRY_URL_DOC)
        .define(DATA_ROOT_CONFIG, Type.STRING, "", Importance.HIGH, DATA_ROOT_DOC)
        .define(STATE_DIR_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT, Importance.HIGH, STATE_DIR_DOC)
        .define(TOPICS_CONFIG, Type.LIST, "", Importance.HIGH, TOPICS_DOC)
        .define(TOPICS_REGEX_CONFIG, Type.STRING, "", REGEX, Importance.HIGH, TOPICS_REGEX_DOC)
        .define(MAX_SPLIT_RECORDS_CONFIG, Type.LONG, 1_000_000L, Range.atLeast(1), Importance.MEDIUM,
            MAX_SPLIT_RECORDS_DOC)
        .define(MAX_ERROR_PERCENT_CONFIG, Type.DOUBLE, 0.1, Range.between(0, 100), Importance.MEDIUM,
            MAX_ERROR_PERCENT_DOC)
        .define(CODEC_CONFIG, Type.STRING, "snappy", ValidString.in("snappy", "deflate"), Importance.MEDIUM, CODEC_DOC)
        .define(DEFLATE_LEVEL_CONFIG, Type.INT, 6, Range.between(1, 9), Importance.LOW, DEFLATE_LEVEL_DOC)
        .define(LAYOUT_CONFIG, Type.STRING, HourLayout.HOURLY.setting(),
            ValidString.in(HourLayout.HOURLY.setting(), HourLayout.HIVE.setting()), Importance.MEDIUM, LAYOUT_DOC)
        .define(NEW_PARTITION_START_CONFIG, Type.STRING, EARLIEST, INSTANT_OR_EARLIEST, Importance.MEDIUM,
            NEW_PARTITION_START_DOC)
        .define(RECREATED_TOPIC_CONFIG, Type.STRING, RECREATED_FAIL, ValidString.in(RECREATED_FAIL, RECREATED_RESTART),
            Importance.MEDIUM, RECREATED_TOPIC_DOC)
        .define(LOCK_LEASE_MS_CONFIG, Type.LONG, 60_000L, Range.atLeast(100), Importance.LOW, LOCK_LEASE_MS_DOC)
        .define(VALUE_FORMAT_CONFIG, Type.STRING, "avro", ValidString.in("raw", "avro"), Importance.LOW,
            VALUE_FORMAT_DOC)
        .define(AUDIT_ENABLED_CONFIG, Type.BOOLEAN, false, Importance.MEDIUM, AUDIT_ENABLED_DOC)
        .define(AUDIT_CLUSTER_CONFIG, Type.STRING, "offline", Importance.LOW, AUDIT_CLUSTER_DOC);

    public LoadConfig(Map<?, ?> props) {
        super(CONFIG, props);
    }

    /** The settings a job carries in {@code conf}: those {@link #writeTo} listed, plus any declared one set there. */
    public static LoadConfig from(Configuration conf) {
        Map<String, String> props = new HashMap<>();
        for (String name : conf.getTrimmedStringCollection(SETTINGS_KEY)) {
            putIfSet(props, conf, name);
        }
        for (ConfigDef.ConfigKey key : CONFIG.keys()) {
            putIfSet(props, conf, key.name);
        }
        return new LoadConfig(props);
    }

    private static void putIfSet(Map<String, String> props, Configuration conf, String name) {
        String value = conf.getRaw(name);
        if (value != null) {
            props.put(name, value);
        }
    }

    /** Puts every setting given (declared or passed through) into {@code conf}, and lists their names. */
    public void writeTo(Configuration conf) {
        for (Map.Entry<String, Object> e : originals().entrySet()) {
            conf.set(e.getKey(), render(e.getValue()));
        }
        conf.setStrings(SETTINGS_KEY, originals().keySet().toArray(String[]::new));
    }

    private static String render(Object value) {
        return value instanceof List<?> list ? String.join(",", list.stream().map(String::valueOf).toList())
            : String.valueOf(value);
    }

    public String stateDir() {
        return getString(STATE_DIR_CONFIG);
    }

    /** The data root; throws {@link ConfigException} when it is not set. */
    /** Whether a topic deleted and created again is read from its start again rather than failing the load. */
    public boolean restartRecreatedTopics() {
        return RECREATED_RESTART.equals(getString(RECREATED_TOPIC_CONFIG));
    }

    public long lockLeaseMs() {
        return getLong(LOCK_LEASE_MS_CONFIG);
    }

    public String dataRoot() {
        return required(DATA_ROOT_CONFIG);
    }

    public List<String> topics() {
        return getList(TOPICS_CONFIG);
    }

    /** The topic pattern, or null when none is set. */
    public Pattern topicsRegex() {
        String regex = getString(TOPICS_REGEX_CONFIG);
        return regex.isEmpty() ? null : Pattern.compile(regex);
    }

    public long maxSplitRecords() {
        return getLong(MAX_SPLIT_RECORDS_CONFIG);
    }

    public double maxErrorPercent() {
        return getDouble(MAX_ERROR_PERCENT_CONFIG);
    }

    public String codec() {
        return getString(CODEC_CONFIG);
    }

    public int deflateLevel() {
        return getInt(DEFLATE_LEVEL_CONFIG);
    }

    /** How hour directories are named, for the loader and the Hive partitions alike. */
    public HourLayout layout() {
        return HourLayout.named(getString(LAYOUT_CONFIG));
    }

    public boolean decodeAvro() {
        return getString(VALUE_FORMAT_CONFIG).equals("avro");
    }

    /** The time new partitions start at, or empty for the earliest offset. */
    public OptionalLong newPartitionStartMs() {
        return parseStart(NEW_PARTITION_START_CONFIG, getString(NEW_PARTITION_START_CONFIG));
    }

    /** The registry URL setting; throws {@link ConfigException} when it is not set. */
    public String schemaRegistryUrl() {
        List<String> urls = getList(SCHEMA_REGISTRY_URL_CONFIG);
        if (urls.isEmpty()) {
            throw new ConfigException("Set " + SCHEMA_REGISTRY_URL_CONFIG + ": the loader decodes every message's value "
                + "with the writer's schema from the registry");
        }
        return String.join(",", urls);
    }

    public boolean auditEnabled() {
        return getBoolean(AUDIT_ENABLED_CONFIG);
    }

    /**
     * The settings of the load's audit publisher: the brokers, client and registry settings the load reads
     * with (the audit topic is on the cluster it loads from), the audit.* settings given, and the hadoop tier.
     */
    public Map<String, Object> auditSettings() {
        Map<String, Object> settings = new HashMap<>();
        settings.put(AuditConfig.AUDIT_TIER_CONFIG, AUDIT_TIER);
        settings.put(AuditConfig.AUDIT_APPLICATION_CONFIG, "millrace-load");
        originals().forEach((name, value) -> {
            if (name.startsWith("audit.") || name.startsWith("schema.registry.")
                || CONFIG.key(name) != null && !name.startsWith("millrace.")) {
                settings.put(name, value);
            }
        });
        settings.put(AUDIT_CLUSTER_CONFIG, getString(AUDIT_CLUSTER_CONFIG));
        settings.remove(AUDIT_ENABLED_CONFIG);
        return settings;
    }

    /** The audit's settings as the audit module reads them; throws {@link ConfigException} for a bad one. */
    public AuditConfig auditConfig() {
        return new AuditConfig(auditSettings());
    }

    /** Checks what a load needs beyond what the InputFormat needs; throws {@link ConfigException} naming what is missing. */
    public void validateForLoad() {
        dataRoot();
        schemaRegistryUrl();
        if (topics().isEmpty() && topicsRegex() == null) {
            throw new ConfigException("Name the topics to load: " + TOPICS_CONFIG + " (--topics) or " + TOPICS_REGEX_CONFIG);
        }
        if (auditEnabled()) {
            auditConfig();   // bad audit settings fail the load before it reads anything
        }
    }

    private String required(String name) {
        String value = getString(name);
        if (value == null || value.isBlank()) {
            throw new ConfigException("Set " + name + ": " + CONFIG.key(name).documentation);
        }
        return value;
    }

    private static OptionalLong parseStart(String name, String value) {
        if (value.equalsIgnoreCase(EARLIEST)) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Instant.parse(value).toEpochMilli());
        } catch (DateTimeParseException e) {
            throw new ConfigException(name, value, "expected earliest or an ISO-8601 instant such as 2024-01-31T00:00:00Z");
        }
    }
}
