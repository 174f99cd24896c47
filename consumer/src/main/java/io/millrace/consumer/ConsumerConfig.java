package io.millrace.consumer;

import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import io.millrace.common.config.ConfigDef.ValidString;
import java.util.Map;

/**
 * Every setting of Millrace's consumers, the {@link PartitionReader} and the {@link GroupConsumer},
 * under the names Kafka users know (the 0.8 consumer's where the concept is the paper's: the
 * ZooKeeper timeouts, {@code queued.max.message.chunks}, the rebalance retries, {@code consumer.timeout.ms}),
 * plus the settings every client shares ({@link CommonClientConfigs}). Parsed and validated in the
 * constructor. Immutable and thread-safe.
 */
public final class ConsumerConfig extends AbstractConfig {

    public static final String GROUP_ID_CONFIG = "group.id";
    static final String GROUP_ID_DOC = "The consumer group: consumers with the same group id share the partitions of "
        + "their topics, each partition read by one of them; its registries live under /millrace/consumers/<group.id> "
        + "in ZooKeeper. Required by the group consumer, ignored by the partition reader.";

    public static final String CONSUMER_ID_CONFIG = "consumer.id";
    static final String CONSUMER_ID_DOC = "The id this consumer registers under in its group. Empty: "
        + "<group>_<host>-<start time>-<random>, unique per instance. Two live consumers must never share an id.";

    public static final String FETCH_MIN_BYTES_CONFIG = "fetch.min.bytes";
    static final String FETCH_MIN_BYTES_DOC = "The least data a broker should gather before answering a fetch; it "
        + "answers sooner when fetch.max.wait.ms passes.";

    public static final String FETCH_MAX_BYTES_CONFIG = "fetch.max.bytes";
    static final String FETCH_MAX_BYTES_DOC = "The most data one fetch response may carry, over all its partitions. "
        + "A first batch larger than this is still returned, so a consumer always makes progress.";

    public static final String MAX_PARTITION_FETCH_BYTES_CONFIG = "max.partition.fetch.bytes";
    static final String MAX_PARTITION_FETCH_BYTES_DOC = "The most data a fetch returns for one partition: the "
        + "pull's byte budget of the paper. Larger values mean fewer round trips and more memory per queued chunk.";

    public static final String FETCH_MAX_WAIT_MS_CONFIG = "fetch.max.wait.ms";
    static final String FETCH_MAX_WAIT_MS_DOC = "How long a broker may hold a fetch while fewer than fetch.min.bytes "
        + "are available (long polling at the end of the log).";

    public static final String AUTO_OFFSET_RESET_CONFIG = "auto.offset.reset";
    static final String AUTO_OFFSET_RESET_DOC = "Where a group starts reading a partition it has no committed offset for, "
        + "and where it goes on when its offset is out of range: smallest (the earliest offset still kept) or largest "
        + "(only what is produced from now on). earliest and latest are accepted as synonyms.";

    public static final String ENABLE_AUTO_COMMIT_CONFIG = "enable.auto.commit";
    static final String ENABLE_AUTO_COMMIT_DOC = "Commit the offsets of the processed messages to the offset "
        + "registry every auto.commit.interval.ms (a message is processed once the application comes back to its "
        + "stream for more). Processed offsets are also committed on every rebalance and on close either way.";

    public static final String AUTO_COMMIT_INTERVAL_MS_CONFIG = "auto.commit.interval.ms";
    static final String AUTO_COMMIT_INTERVAL_MS_DOC = "How often offsets are committed when enable.auto.commit is on. "
        + "After a crash the group reads again at most what was processed in this interval.";

    public static final String QUEUED_MAX_MESSAGE_CHUNKS_CONFIG = "queued.max.message.chunks";
    static final String QUEUED_MAX_MESSAGE_CHUNKS_DOC = "How many fetched chunks (one partition's part of a fetch "
        + "response, at most max.partition.fetch.bytes) each stream's queue holds. A full queue stops its fetcher: "
        + "the back-pressure that bounds memory.";

    public static final String REBALANCE_MAX_RETRIES_CONFIG = "rebalance.max.retries";
    static final String REBALANCE_MAX_RETRIES_DOC = "How many times a rebalance that meets a partition still owned by "
        + "another consumer releases everything and tries again, rebalance.backoff.ms apart, before it gives up until "
        + "the next change in the group or the cluster.";

    public static final String REBALANCE_BACKOFF_MS_CONFIG = "rebalance.backoff.ms";
    static final String REBALANCE_BACKOFF_MS_DOC = "The wait between two attempts of a rebalance.";

    public static final String ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG = "zookeeper.session.timeout.ms";
    static final String ZOOKEEPER_SESSION_TIMEOUT_MS_DOC = "The ZooKeeper session timeout: a consumer that is silent "
        + "this long loses its registration and its partitions, which the rest of the group then takes over.";

    public static final String ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG = "zookeeper.connection.timeout.ms";
    static final String ZOOKEEPER_CONNECTION_TIMEOUT_MS_DOC = "How long the consumer waits for its first connection "
        + "to ZooKeeper before it fails to start.";

    public static final String CONSUMER_TIMEOUT_MS_CONFIG = "consumer.timeout.ms";
    static final String CONSUMER_TIMEOUT_MS_DOC = "How long a stream's iterator waits for a message before it throws "
        + "ConsumerTimeoutException; -1 waits forever, as the paper's never-ending streams do.";

    public static final String CHECK_CRCS_CONFIG = "check.crcs";
    static final String CHECK_CRCS_DOC = "Check the CRC-32C of every fetched batch before reading it, so that bytes "
        + "damaged on disk or on the way are reported rather than consumed.";

    public static final String ISOLATION_LEVEL_CONFIG = "isolation.level";
    static final String ISOLATION_LEVEL_DOC = "read_uncommitted reads every record written to a partition; "
        + "read_committed reads a transactional producer's records only once its transaction commits, never an "
        + "aborted transaction's, and stops at the first transaction still open (the last stable offset), as "
        + "Kafka's consumer does. Records of producers without transactions are read the same either way.";

    /** The default request timeout leaves room for a fetch held for fetch.max.wait.ms. */
    static final int DEFAULT_REQUEST_TIMEOUT_MS = 30_000;

    public static final ConfigDef CONFIG = CommonClientConfigs.define(new ConfigDef(), DEFAULT_REQUEST_TIMEOUT_MS)
        .define(GROUP_ID_CONFIG, Type.STRING, "", Importance.HIGH, GROUP_ID_DOC)
        .define(CONSUMER_ID_CONFIG, Type.STRING, "", Importance.LOW, CONSUMER_ID_DOC)
        .define(FETCH_MIN_BYTES_CONFIG, Type.INT, 1, Range.atLeast(0), Importance.HIGH, FETCH_MIN_BYTES_DOC)
        .define(FETCH_MAX_BYTES_CONFIG, Type.INT, 50 * 1024 * 1024, Range.atLeast(0), Importance.MEDIUM, FETCH_MAX_BYTES_DOC)
        .define(MAX_PARTITION_FETCH_BYTES_CONFIG, Type.INT, 1024 * 1024, Range.atLeast(1), Importance.HIGH,
            MAX_PARTITION_FETCH_BYTES_DOC)
        .define(FETCH_MAX_WAIT_MS_CONFIG, Type.INT, 500, Range.atLeast(0), Importance.LOW, FETCH_MAX_WAIT_MS_DOC)
        .define(AUTO_OFFSET_RESET_CONFIG, Type.STRING, "largest", ValidString.in("smallest", "largest", "earliest", "latest"),
            Importance.MEDIUM, AUTO_OFFSET_RESET_DOC)
        .define(ENABLE_AUTO_COMMIT_CONFIG, Type.BOOLEAN, true, Importance.MEDIUM, ENABLE_AUTO_COMMIT_DOC)
        .define(AUTO_COMMIT_INTERVAL_MS_CONFIG, Type.INT, 5_000, Range.atLeast(1), Importance.LOW, AUTO_COMMIT_INTERVAL_MS_DOC)
        .define(QUEUED_MAX_MESSAGE_CHUNKS_CONFIG, Type.INT, 10, Range.atLeast(1), Importance.MEDIUM,
            QUEUED_MAX_MESSAGE_CHUNKS_DOC)
        .define(REBALANCE_MAX_RETRIES_CONFIG, Type.INT, 4, Range.atLeast(0), Importance.MEDIUM, REBALANCE_MAX_RETRIES_DOC)
        .define(REBALANCE_BACKOFF_MS_CONFIG, Type.INT, 2_000, Range.atLeast(0), Importance.LOW, REBALANCE_BACKOFF_MS_DOC)
        .define(ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG, Type.INT, 6_000, Range.atLeast(1), Importance.HIGH,
            ZOOKEEPER_SESSION_TIMEOUT_MS_DOC)
        .define(ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG, Type.INT, 6_000, Range.atLeast(1), Importance.MEDIUM,
            ZOOKEEPER_CONNECTION_TIMEOUT_MS_DOC)
        .define(CONSUMER_TIMEOUT_MS_CONFIG, Type.INT, -1, Range.atLeast(-1), Importance.LOW, CONSUMER_TIMEOUT_MS_DOC)
        .define(CHECK_CRCS_CONFIG, Type.BOOLEAN, true, Importance.LOW, CHECK_CRCS_DOC)
        .define(ISOLATION_LEVEL_CONFIG, Type.STRING, "read_uncommitted",
            ValidString.in("read_uncommitted", "read_committed"), Importance.MEDIUM, ISOLATION_LEVEL_DOC);

    public ConsumerConfig(Map<?, ?> props) {
        super(CONFIG, props);
    }

    /** Whether a partition without a committed offset starts at the earliest offset (else at the latest). */
    public boolean resetToEarliest() {
        String reset = getString(AUTO_OFFSET_RESET_CONFIG);
        return reset.equals("smallest") || reset.equals("earliest");
    }

    /** Whether fetches read committed records only (isolation.level=read_committed). */
    public boolean readCommitted() {
        return getString(ISOLATION_LEVEL_CONFIG).equals("read_committed");
    }

    public String groupId() {
        return getString(GROUP_ID_CONFIG);
    }
}
