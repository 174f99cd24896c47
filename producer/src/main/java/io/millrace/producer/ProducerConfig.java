package io.millrace.producer;

import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigDef.Importance;
import io.millrace.common.config.ConfigDef.Range;
import io.millrace.common.config.ConfigDef.Type;
import io.millrace.common.config.ConfigDef.ValidString;
import io.millrace.common.config.ConfigException;
import io.millrace.common.record.CompressionType;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every setting of the producer, declared once under Kafka's producer names and with Kafka's
 * defaults where the meaning is the same, plus the settings every client shares
 * ({@link CommonClientConfigs}). The table in the clients documentation is generated from
 * {@link #CONFIG}. Values are parsed and validated in the constructor. Immutable and thread-safe.
 */
public final class ProducerConfig extends AbstractConfig {

    private static final Logger log = LoggerFactory.getLogger(ProducerConfig.class);

    /** The most produce requests per connection an idempotent producer may have in flight: what brokers remember per producer. */
    public static final int MAX_IN_FLIGHT_FOR_IDEMPOTENCE = 5;

    public static final String ACKS_CONFIG = "acks";
    static final String ACKS_DOC = "How many acknowledgements the leader must have before it answers a produce request: "
        + "0 (none: the record counts as sent once written to the socket, its offset is unknown and no retry happens), "
        + "1 (the leader appended it) or all / -1 (every in-sync replica has it; with Millrace's single-copy "
        + "partitions the same as 1).";

    public static final String BATCH_SIZE_CONFIG = "batch.size";
    static final String BATCH_SIZE_DOC = "The size in bytes of the buffer a partition's records are batched in, counted "
        + "uncompressed. A batch is sent when it is full or has waited linger.ms. A record larger than this gets a "
        + "batch of its own. 0 disables batching (one record per batch).";

    public static final String LINGER_MS_CONFIG = "linger.ms";
    static final String LINGER_MS_DOC = "How long a batch that is not full waits for more records before it is sent. "
        + "Higher values trade latency for fewer, larger requests. flush() and close() do not wait.";

    public static final String BUFFER_MEMORY_CONFIG = "buffer.memory";
    static final String BUFFER_MEMORY_DOC = "The bytes the producer may hold in batches not yet acknowledged. When they "
        + "are used up, send blocks for up to max.block.ms and then fails with a TimeoutException.";

    public static final String MAX_BLOCK_MS_CONFIG = "max.block.ms";
    static final String MAX_BLOCK_MS_DOC = "How long send may block, waiting for the topic's metadata or for buffer "
        + "memory, before it fails with a TimeoutException.";

    public static final String MAX_REQUEST_SIZE_CONFIG = "max.request.size";
    static final String MAX_REQUEST_SIZE_DOC = "The largest produce request, in bytes; also the largest record: a larger "
        + "one fails at once with a RecordTooLargeException. Brokers have their own limit (message.max.bytes).";

    public static final String MAX_IN_FLIGHT_CONFIG = "max.in.flight.requests.per.connection";
    static final String MAX_IN_FLIGHT_DOC = "How many produce requests may await an answer on one broker connection. With "
        + "1, a retried batch is sent again before any later batch of its partition, so retries keep the order; with "
        + "more, a retry may overtake a later batch, unless the producer is idempotent (enable.idempotence), which "
        + "keeps the order with up to 5.";

    public static final String RETRIES_CONFIG = "retries";
    static final String RETRIES_DOC = "How many times a batch that failed with a retriable error (a lost connection, a "
        + "timeout, a leader that moved) is sent again, each after retry.backoff.ms, as long as delivery.timeout.ms "
        + "has not passed. 0 disables retries.";

    public static final String DELIVERY_TIMEOUT_MS_CONFIG = "delivery.timeout.ms";
    static final String DELIVERY_TIMEOUT_MS_DOC = "An upper bound on the time from send to success or failure of a "
        + "record, retries included. A batch older than this that is not in flight fails with a TimeoutException.";

    public static final String ENABLE_IDEMPOTENCE_CONFIG = "enable.idempotence";
    static final String ENABLE_IDEMPOTENCE_DOC = "Whether each record is written once and in send order within its "
        + "partition, retries included. The producer gets a producer id and epoch from the broker (InitProducerId) and "
        + "numbers every partition's batches from 0, so the broker appends a batch sent again only once and refuses one "
        + "that would leave a gap; a retried batch keeps its number. It needs acks=all, retries > 0 and "
        + "max.in.flight.requests.per.connection <= 5 (brokers remember a producer's last five batches per partition). "
        + "As with Kafka's producer (4.0 on): more than 5 in flight stops the producer from starting unless this is "
        + "false; acks other than all or retries=0 do too when this is set to true, and turn idempotence off, with a "
        + "log line saying which setting did it, when it is left at its default. The default is true, as in Kafka "
        + "since 3.0. The guarantee needs brokers that check sequence numbers, as Apache Kafka's and "
        + "Millrace's do.";

    public static final String COMPRESSION_TYPE_CONFIG = "compression.type";
    static final String COMPRESSION_TYPE_DOC = "The codec batches are compressed with: none, gzip, snappy, lz4 or zstd. "
        + "The broker stores batches as they come.";

    public static final String PARTITIONER_CLASS_CONFIG = "partitioner.class";
    static final String PARTITIONER_CLASS_DOC = "The class of the Partitioner that chooses the partition of a record "
        + "that names none; it needs a public no-argument constructor. Null means the default: murmur2 of the key as "
        + "Kafka does, a sticky partition per batch for records without a key.";

    public static final String KEY_SERIALIZER_CLASS_CONFIG = "key.serializer";
    static final String KEY_SERIALIZER_CLASS_DOC = "The class of the Serializer of keys, when none is passed to the "
        + "producer's constructor.";

    public static final String VALUE_SERIALIZER_CLASS_CONFIG = "value.serializer";
    static final String VALUE_SERIALIZER_CLASS_DOC = "The class of the Serializer of values, when none is passed to "
        + "the producer's constructor.";

    public static final ConfigDef CONFIG = CommonClientConfigs.define(new ConfigDef(), 30_000)
        .define(ACKS_CONFIG, Type.STRING, "all", ValidString.in("all", "-1", "0", "1"), Importance.HIGH, ACKS_DOC)
        .define(BATCH_SIZE_CONFIG, Type.INT, 16_384, Range.atLeast(0), Importance.MEDIUM, BATCH_SIZE_DOC)
        .define(LINGER_MS_CONFIG, Type.LONG, 5L, Range.atLeast(0), Importance.MEDIUM, LINGER_MS_DOC)
        .define(BUFFER_MEMORY_CONFIG, Type.LONG, 32L * 1024 * 1024, Range.atLeast(0), Importance.HIGH, BUFFER_MEMORY_DOC)
        .define(MAX_BLOCK_MS_CONFIG, Type.LONG, 60_000L, Range.atLeast(0), Importance.MEDIUM, MAX_BLOCK_MS_DOC)
        .define(MAX_REQUEST_SIZE_CONFIG, Type.INT, 1024 * 1024, Range.atLeast(0), Importance.MEDIUM, MAX_REQUEST_SIZE_DOC)
        .define(MAX_IN_FLIGHT_CONFIG, Type.INT, 5, Range.atLeast(1), Importance.LOW, MAX_IN_FLIGHT_DOC)
        .define(RETRIES_CONFIG, Type.INT, Integer.MAX_VALUE, Range.atLeast(0), Importance.HIGH, RETRIES_DOC)
        .define(DELIVERY_TIMEOUT_MS_CONFIG, Type.INT, 120_000, Range.atLeast(0), Importance.MEDIUM, DELIVERY_TIMEOUT_MS_DOC)
        .define(ENABLE_IDEMPOTENCE_CONFIG, Type.BOOLEAN, true, Importance.LOW, ENABLE_IDEMPOTENCE_DOC)
        .define(COMPRESSION_TYPE_CONFIG, Type.STRING, "none", ValidString.in("none", "gzip", "snappy", "lz4", "zstd"),
            Importance.HIGH, COMPRESSION_TYPE_DOC)
        .define(PARTITIONER_CLASS_CONFIG, Type.STRING, null, Importance.MEDIUM, PARTITIONER_CLASS_DOC)
        .define(KEY_SERIALIZER_CLASS_CONFIG, Type.STRING, null, Importance.HIGH, KEY_SERIALIZER_CLASS_DOC)
        .define(VALUE_SERIALIZER_CLASS_CONFIG, Type.STRING, null, Importance.HIGH, VALUE_SERIALIZER_CLASS_DOC);

    private final boolean idempotence;

    public ProducerConfig(Map<?, ?> props) {
        super(CONFIG, props);
        if (bufferMemory() < maxRequestSize()) {
            throw new ConfigException(BUFFER_MEMORY_CONFIG, bufferMemory(), "must be at least max.request.size ("
                + maxRequestSize() + "), or no record of that size could ever be buffered");
        }
        this.idempotence = getBoolean(ENABLE_IDEMPOTENCE_CONFIG) && idempotenceFits();
    }

    /**
     * Whether the settings idempotence needs hold, as Kafka's producer (4.0 on) decides: more requests in
     * flight than a broker remembers batches is refused whenever idempotence is on; acks and retries that
     * cannot keep its promise are refused when it was asked for, and turn the default off.
     */
    private boolean idempotenceFits() {
        if (maxInFlightRequestsPerConnection() > MAX_IN_FLIGHT_FOR_IDEMPOTENCE) {
            throw new ConfigException(ENABLE_IDEMPOTENCE_CONFIG, true, "the idempotent producer needs "
                + MAX_IN_FLIGHT_CONFIG + " <= " + MAX_IN_FLIGHT_FOR_IDEMPOTENCE + ", not "
                + maxInFlightRequestsPerConnection() + "; set enable.idempotence=false for more");
        }
        String conflict = acks() != -1 ? "acks=all, not acks=" + getString(ACKS_CONFIG)
            : retries() == 0 ? "retries > 0, not retries=0" : null;
        if (conflict == null) {
            return true;
        }
        if (originals().containsKey(ENABLE_IDEMPOTENCE_CONFIG)) {
            throw new ConfigException(ENABLE_IDEMPOTENCE_CONFIG, true, "the idempotent producer needs " + conflict);
        }
        log.info("Idempotence is off for this producer: it needs {}", conflict);
        return false;
    }

    /** Whether the producer is idempotent: asked for (or left at the default) and the settings it needs hold. */
    public boolean idempotence() {
        return idempotence;
    }

    /** acks as the protocol's number: 0, 1 or -1. */
    public short acks() {
        String acks = getString(ACKS_CONFIG);
        return acks.equals("all") ? -1 : Short.parseShort(acks);
    }

    public int batchSize() {
        return getInt(BATCH_SIZE_CONFIG);
    }

    public long lingerMs() {
        return getLong(LINGER_MS_CONFIG);
    }

    public long bufferMemory() {
        return getLong(BUFFER_MEMORY_CONFIG);
    }

    public long maxBlockMs() {
        return getLong(MAX_BLOCK_MS_CONFIG);
    }

    public int maxRequestSize() {
        return getInt(MAX_REQUEST_SIZE_CONFIG);
    }

    public int maxInFlightRequestsPerConnection() {
        return getInt(MAX_IN_FLIGHT_CONFIG);
    }

    public int retries() {
        return getInt(RETRIES_CONFIG);
    }

    public int deliveryTimeoutMs() {
        return getInt(DELIVERY_TIMEOUT_MS_CONFIG);
    }

    public int requestTimeoutMs() {
        return number(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG).intValue();
    }

    public long retryBackoffMs() {
        return number(CommonClientConfigs.RETRY_BACKOFF_MS_CONFIG).longValue();
    }

    public long metadataMaxAgeMs() {
        return number(CommonClientConfigs.METADATA_MAX_AGE_MS_CONFIG).longValue();
    }

    public CompressionType compressionType() {
        return CompressionType.forName(getString(COMPRESSION_TYPE_CONFIG));
    }

    // the shared client settings are declared elsewhere; read them whatever their numeric type
    private Number number(String name) {
        return (Number) get(name);
    }
}
