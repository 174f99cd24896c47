package io.millrace.broker.txn;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import java.util.Map;

/**
 * The transaction coordinator's settings, under Kafka's names and with Kafka's defaults, parsed
 * from the broker's properties.
 */
public final class TransactionConfig extends AbstractConfig {

    public static final String TRANSACTION_STATE_LOG_NUM_PARTITIONS_CONFIG = "transaction.state.log.num.partitions";
    private static final String TRANSACTION_STATE_LOG_NUM_PARTITIONS_DOC = "The partitions of __transaction_state, the "
        + "topic each transactional producer's state is kept in. A transactional id's state goes to one partition, "
        + "chosen by the hash of the id as Kafka chooses it, and that partition's leader coordinates its transactions. "
        + "Read when the topic is created, on the first FindCoordinator for a transactional id.";

    public static final String TRANSACTION_STATE_LOG_REPLICATION_FACTOR_CONFIG = "transaction.state.log.replication.factor";
    private static final String TRANSACTION_STATE_LOG_REPLICATION_FACTOR_DOC = "The replication factor of "
        + "__transaction_state. A transaction's state changes are answered once every in-sync replica has them. As for "
        + "__consumer_offsets, a cluster that never had that many brokers gets one replica per live broker.";

    public static final String TRANSACTION_STATE_LOG_MIN_ISR_CONFIG = "transaction.state.log.min.isr";
    private static final String TRANSACTION_STATE_LOG_MIN_ISR_DOC = "The min.insync.replicas of __transaction_state "
        + "(at most its replication factor): with fewer in-sync replicas a transaction cannot change state and its "
        + "producer is told COORDINATOR_NOT_AVAILABLE, which it retries.";

    public static final String TRANSACTION_STATE_LOG_SEGMENT_BYTES_CONFIG = "transaction.state.log.segment.bytes";
    private static final String TRANSACTION_STATE_LOG_SEGMENT_BYTES_DOC = "The segment size of __transaction_state, a "
        + "compacted topic: each transactional id's latest state is kept.";

    public static final String TRANSACTION_MAX_TIMEOUT_MS_CONFIG = "transaction.max.timeout.ms";
    private static final String TRANSACTION_MAX_TIMEOUT_MS_DOC = "The longest transaction.timeout.ms a producer may "
        + "ask for; InitProducerId asking for more gets INVALID_TRANSACTION_TIMEOUT. A transaction open longer than its "
        + "timeout is aborted by the coordinator, and its producer fenced, so that it cannot hold read-committed "
        + "consumers back for ever.";

    public static final String TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS_CONFIG =
        "transaction.abort.timed.out.transaction.cleanup.interval.ms";
    private static final String TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS_DOC = "How often the "
        + "coordinator looks for transactions open longer than their timeout, to abort them.";

    public static final String TRANSACTION_STATE_WRITE_TIMEOUT_MS_CONFIG = "transaction.state.log.write.timeout.ms";
    private static final String TRANSACTION_STATE_WRITE_TIMEOUT_MS_DOC = "How long a state change waits for the in-sync "
        + "replicas of its __transaction_state partition before the producer is told COORDINATOR_NOT_AVAILABLE, which "
        + "it retries. Millrace's own setting; Kafka uses the offsets topic's commit timeout.";

    public static final ConfigDef CONFIG = new ConfigDef()
        .define(TRANSACTION_STATE_LOG_NUM_PARTITIONS_CONFIG, Type.INT, 50, Range.atLeast(1), Importance.HIGH,
            TRANSACTION_STATE_LOG_NUM_PARTITIONS_DOC)
        .define(TRANSACTION_STATE_LOG_REPLICATION_FACTOR_CONFIG, Type.INT, 3, Range.atLeast(1), Importance.HIGH,
            TRANSACTION_STATE_LOG_REPLICATION_FACTOR_DOC)
        .define(TRANSACTION_STATE_LOG_MIN_ISR_CONFIG, Type.INT, 2, Range.atLeast(1), Importance.HIGH,
            TRANSACTION_STATE_LOG_MIN_ISR_DOC)
        .define(TRANSACTION_STATE_LOG_SEGMENT_BYTES_CONFIG, Type.INT, 100 * 1024 * 1024, Range.atLeast(1024),
            Importance.HIGH, TRANSACTION_STATE_LOG_SEGMENT_BYTES_DOC)
        .define(TRANSACTION_MAX_TIMEOUT_MS_CONFIG, Type.INT, 900_000, Range.atLeast(1), Importance.HIGH,
            TRANSACTION_MAX_TIMEOUT_MS_DOC)
        .define(TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS_CONFIG, Type.INT, 10_000, Range.atLeast(1),
            Importance.LOW, TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS_DOC)
        .define(TRANSACTION_STATE_WRITE_TIMEOUT_MS_CONFIG, Type.INT, 5_000, Range.atLeast(1), Importance.LOW,
            TRANSACTION_STATE_WRITE_TIMEOUT_MS_DOC);

    /** Every setting at its default. */
    public static final TransactionConfig DEFAULT = new TransactionConfig(Map.of());

    /** Parses and validates the settings; throws ConfigException naming the first bad one. */
    public TransactionConfig(Map<?, ?> props) {
        super(CONFIG, props);
    }

    public int stateLogNumPartitions() {
        return getInt(TRANSACTION_STATE_LOG_NUM_PARTITIONS_CONFIG);
    }

    public int stateLogReplicationFactor() {
        return getInt(TRANSACTION_STATE_LOG_REPLICATION_FACTOR_CONFIG);
    }

    public int stateLogMinIsr() {
        return getInt(TRANSACTION_STATE_LOG_MIN_ISR_CONFIG);
    }

    public int stateLogSegmentBytes() {
        return getInt(TRANSACTION_STATE_LOG_SEGMENT_BYTES_CONFIG);
    }

    public int maxTimeoutMs() {
        return getInt(TRANSACTION_MAX_TIMEOUT_MS_CONFIG);
    }

    public int abortTimedOutIntervalMs() {
        return getInt(TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS_CONFIG);
    }

    public int stateWriteTimeoutMs() {
        return getInt(TRANSACTION_STATE_WRITE_TIMEOUT_MS_CONFIG);
    }
}
