package io.millrace.audit;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;

/**
 * The settings of a counting client: which tier, cluster and application it counts for, the windows,
 * and how its counts are published. The audit producer's own settings ({@code bootstrap.servers},
 * {@code schema.registry.url}, ...) come with them and are passed on to it.
 */
public final class AuditConfig extends AbstractConfig {

    public static final String AUDIT_ENABLED_CONFIG = "audit.enabled";
    static final String AUDIT_ENABLED_DOC = "Whether the audited group consumer (AuditingConsumer, "
        + "AuditingPollingConsumer) counts what it consumes, per topic and window, under the tier of its group.id, "
        + "and publishes the counts once the offsets covering them are committed; off, it reads as the plain group "
        + "consumer. The mirror maker and the loader read a setting of the same name for their own tiers; the "
        + "interceptors count whenever they are listed in interceptor.classes.";

    public static final String AUDIT_TOPIC_CONFIG = "audit.topic";
    public static final String DEFAULT_TOPIC = "_audit";
    static final String AUDIT_TOPIC_DOC = "The topic the audit records go to; their schema is registered under "
        + "<audit.topic>-value.";

    public static final String AUDIT_TIER_CONFIG = "audit.tier";
    static final String AUDIT_TIER_DOC = "Where in the pipeline this client counts: producer, mirror, hadoop, or a "
        + "consumer group's name.";

    public static final String AUDIT_CLUSTER_CONFIG = "audit.cluster";
    static final String AUDIT_CLUSTER_DOC = "The data centre or cluster the tier belongs to, e.g. dc1 or offline.";

    public static final String AUDIT_APPLICATION_CONFIG = "audit.application";
    static final String AUDIT_APPLICATION_DOC = "The counting client's identity, e.g. the front-end service that "
        + "produces: the report's per-producer drill-down.";

    public static final String AUDIT_HOST_CONFIG = "audit.host";
    static final String AUDIT_HOST_DOC = "The host reported with the counts; this host's name when empty.";

    public static final String AUDIT_WINDOW_MS_CONFIG = "audit.window.ms";
    static final String AUDIT_WINDOW_MS_DOC = "The length of the tumbling windows of event time the counts are kept in.";

    public static final String AUDIT_LATENESS_MS_CONFIG = "audit.lateness.ms";
    static final String AUDIT_LATENESS_MS_DOC = "How long after a window's end (by this client's clock) its counts are "
        + "first published, so that events arriving a little late are in the first record. Events later still are "
        + "published as a further delta for the same window.";

    public static final String AUDIT_PUBLISH_INTERVAL_MS_CONFIG = "audit.publish.interval.ms";
    static final String AUDIT_PUBLISH_INTERVAL_MS_DOC = "How often the counts of windows that are due, and records not "
        + "yet acknowledged, are sent to the audit topic.";

    public static final String AUDIT_MAX_PENDING_RECORDS_CONFIG = "audit.max.pending.records";
    static final String AUDIT_MAX_PENDING_RECORDS_DOC = "How many audit records are kept while the audit topic cannot "
        + "be reached. Beyond it the oldest are dropped, counted in the DroppedRecords metric and logged, so that an "
        + "unreachable audit topic never blocks or exhausts the application.";

    public static final String AUDIT_CLOSE_TIMEOUT_MS_CONFIG = "audit.close.timeout.ms";
    static final String AUDIT_CLOSE_TIMEOUT_MS_DOC = "How long closing waits for the last audit records to be "
        + "acknowledged; what is still unsent then is counted as dropped.";

    public static final ConfigDef CONFIG = new ConfigDef()
        .define(AUDIT_ENABLED_CONFIG, Type.BOOLEAN, false, Importance.HIGH, AUDIT_ENABLED_DOC)
        .define(AUDIT_TOPIC_CONFIG, Type.STRING, DEFAULT_TOPIC, Importance.HIGH, AUDIT_TOPIC_DOC)
        .define(AUDIT_TIER_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT, Importance.HIGH, AUDIT_TIER_DOC)
        .define(AUDIT_CLUSTER_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT, Importance.HIGH, AUDIT_CLUSTER_DOC)
        .define(AUDIT_APPLICATION_CONFIG, Type.STRING, ConfigDef.NO_DEFAULT, Importance.HIGH, AUDIT_APPLICATION_DOC)
        .define(AUDIT_HOST_CONFIG, Type.STRING, "", Importance.LOW, AUDIT_HOST_DOC)
        .define(AUDIT_WINDOW_MS_CONFIG, Type.LONG, 600_000L, Range.atLeast(1), Importance.MEDIUM, AUDIT_WINDOW_MS_DOC)
        .define(AUDIT_LATENESS_MS_CONFIG, Type.LONG, 60_000L, Range.atLeast(0), Importance.MEDIUM, AUDIT_LATENESS_MS_DOC)
        .define(AUDIT_PUBLISH_INTERVAL_MS_CONFIG, Type.LONG, 10_000L, Range.atLeast(1), Importance.LOW,
            AUDIT_PUBLISH_INTERVAL_MS_DOC)
        .define(AUDIT_MAX_PENDING_RECORDS_CONFIG, Type.INT, 100_000, Range.atLeast(1), Importance.LOW,
            AUDIT_MAX_PENDING_RECORDS_DOC)
        .define(AUDIT_CLOSE_TIMEOUT_MS_CONFIG, Type.LONG, 30_000L, Range.atLeast(0), Importance.LOW,
            AUDIT_CLOSE_TIMEOUT_MS_DOC);

    /** {@link #AUDIT_ENABLED_CONFIG} alone, read before the settings it makes required are checked. */
    private static final ConfigDef ENABLED_ONLY = new ConfigDef()
        .define(AUDIT_ENABLED_CONFIG, Type.BOOLEAN, false, Importance.HIGH, AUDIT_ENABLED_DOC);

    public AuditConfig(Map<?, ?> props) {
        super(CONFIG, props);
    }

    /** Whether {@code settings}, a client's, turn auditing on; the other audit settings need not be there. */
    public static boolean enabled(Map<?, ?> settings) {
        return (Boolean) ENABLED_ONLY.parse(settings).get(AUDIT_ENABLED_CONFIG);
    }

    public String topic() {
        return getString(AUDIT_TOPIC_CONFIG);
    }

    public String tier() {
        return getString(AUDIT_TIER_CONFIG);
    }

    public String cluster() {
        return getString(AUDIT_CLUSTER_CONFIG);
    }

    public String application() {
        return getString(AUDIT_APPLICATION_CONFIG);
    }

    /** The configured host, or this host's name. */
    public String host() {
        String host = getString(AUDIT_HOST_CONFIG);
        if (!host.isBlank()) {
            return host;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown-host";
        }
    }

    public long windowMs() {
        return getLong(AUDIT_WINDOW_MS_CONFIG);
    }

    public long latenessMs() {
        return getLong(AUDIT_LATENESS_MS_CONFIG);
    }

    public long publishIntervalMs() {
        return getLong(AUDIT_PUBLISH_INTERVAL_MS_CONFIG);
    }

    public int maxPendingRecords() {
        return getInt(AUDIT_MAX_PENDING_RECORDS_CONFIG);
    }

    public long closeTimeoutMs() {
        return getLong(AUDIT_CLOSE_TIMEOUT_MS_CONFIG);
    }
}
