package io.millrace.common.protocol;

import io.millrace.common.config.ConfigException;
import io.millrace.common.errors.CorruptRecordException;
import io.millrace.common.errors.InvalidPartitionsException;
import io.millrace.common.errors.InvalidProducerEpochException;
import io.millrace.common.errors.InvalidRecordException;
import io.millrace.common.errors.InvalidTimestampException;
import io.millrace.common.errors.InvalidTopicException;
import io.millrace.common.errors.KafkaStorageException;
import io.millrace.common.errors.MillraceException;
import io.millrace.common.errors.OffsetOutOfRangeException;
import io.millrace.common.errors.OutOfOrderSequenceException;
import io.millrace.common.errors.RecordBatchTooLargeException;
import io.millrace.common.errors.RecordTooLargeException;
import io.millrace.common.errors.TopicExistsException;
import io.millrace.common.errors.UnknownTopicOrPartitionException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;

/**
 * The error codes of the Kafka protocol that Millrace sends or expects, each with a default
 * message, whether a client may retry, and the exception it becomes on the client.
 *
 * <p>This enum is the one place where the two conversions happen: the broker's response path turns
 * an exception into a code with {@link #forException(Throwable)}, and the client turns a code
 * into an exception with {@link #forCode(short)} and {@link #exception(String)}. Codes and
 * retriable flags are Kafka's, so Kafka clients react to them as they would to a Kafka broker.
 * Codes this enum lacks read as {@link #UNKNOWN_SERVER_ERROR}, as in Kafka's clients; messages
 * therefore keep the raw {@code short} and offer an {@code error()} view.
 */
public enum Errors {
    UNKNOWN_SERVER_ERROR(-1, "The server hit an unexpected error.", false),
    NONE(0, "", false),
    OFFSET_OUT_OF_RANGE(1, "The requested offset is outside the partition's range of offsets.", false,
        OffsetOutOfRangeException.class, OffsetOutOfRangeException::new),
    CORRUPT_MESSAGE(2, "A record batch failed its CRC check or is otherwise damaged.", true,
        CorruptRecordException.class, CorruptRecordException::new),
    UNKNOWN_TOPIC_OR_PARTITION(3, "This server does not host this topic-partition.", true,
        UnknownTopicOrPartitionException.class, UnknownTopicOrPartitionException::new),
    INVALID_FETCH_SIZE(4, "The requested fetch size is invalid.", false),
    LEADER_NOT_AVAILABLE(5, "The partition has no leader right now, for example during an election.", true),
    NOT_LEADER_OR_FOLLOWER(6, "This server is not the leader or a follower of the partition.", true),
    REQUEST_TIMED_OUT(7, "The request timed out.", true),
    MESSAGE_TOO_LARGE(10, "A record batch is larger than the server accepts.", false,
        RecordTooLargeException.class, RecordTooLargeException::new),
    OFFSET_METADATA_TOO_LARGE(12, "The committed metadata is larger than the broker accepts.", false),
    NETWORK_EXCEPTION(13, "The server disconnected before a response was received.", true),
    COORDINATOR_LOAD_IN_PROGRESS(14, "The coordinator is loading and hence can't process requests.", true),
    COORDINATOR_NOT_AVAILABLE(15, "The coordinator is not available.", true),
    NOT_COORDINATOR(16, "This is not the correct coordinator.", true),
    INVALID_TOPIC_EXCEPTION(17, "The topic name is invalid or the operation is not allowed on this topic.", false,
        InvalidTopicException.class, InvalidTopicException::new),
    RECORD_LIST_TOO_LARGE(18, "The records of one produce request are larger than the segment size.", false,
        RecordBatchTooLargeException.class, RecordBatchTooLargeException::new),
    NOT_ENOUGH_REPLICAS(19, "Fewer in-sync replicas than required.", true),
    NOT_ENOUGH_REPLICAS_AFTER_APPEND(20, "Appended to the log, but with fewer in-sync replicas than required.", true),
    INVALID_REQUIRED_ACKS(21, "The produce request asks for an invalid number of acknowledgements.", false),
    ILLEGAL_GENERATION(22, "The generation is not the group's current one.", false),
    INCONSISTENT_GROUP_PROTOCOL(23, "The member's protocol type or protocols do not match the group's.", false),
    INVALID_GROUP_ID(24, "The group id is empty or otherwise invalid.", false),
    UNKNOWN_MEMBER_ID(25, "The member id is not in the group's current generation.", false),
    INVALID_SESSION_TIMEOUT(26, "The session timeout is outside the range the broker allows.", false),
    REBALANCE_IN_PROGRESS(27, "The group is rebalancing, so the member must rejoin.", false),
    INVALID_COMMIT_OFFSET_SIZE(28, "The committed metadata is too large.", false),
    TOPIC_AUTHORIZATION_FAILED(29, "Not authorized to access the topic.", false),
    GROUP_AUTHORIZATION_FAILED(30, "Not authorized to access the group.", false),
    CLUSTER_AUTHORIZATION_FAILED(31, "Not authorized for this cluster operation.", false),
    INVALID_TIMESTAMP(32, "A record timestamp is out of the accepted range.", false,
        InvalidTimestampException.class, InvalidTimestampException::new),
    UNSUPPORTED_SASL_MECHANISM(33, "The broker does not support the requested SASL mechanism.", false),
    UNSUPPORTED_VERSION(35, "The server does not support this version of the request.", false,
        UnsupportedVersionException.class, UnsupportedVersionException::new),
    TOPIC_ALREADY_EXISTS(36, "The topic already exists.", false, TopicExistsException.class, TopicExistsException::new),
    INVALID_PARTITIONS(37, "The number of partitions is invalid.", false,
        InvalidPartitionsException.class, InvalidPartitionsException::new),
    INVALID_REPLICATION_FACTOR(38, "The replication factor is invalid.", false),
    INVALID_REPLICA_ASSIGNMENT(39, "The replica assignment is invalid.", false),
    INVALID_CONFIG(40, "A configuration value is invalid.", false, ConfigException.class, ConfigException::new),
    NOT_CONTROLLER(41, "This is not the controller.", true),
    INVALID_REQUEST(42, "The request is malformed or breaks a protocol rule; see the server log.", false,
        InvalidRequestException.class, InvalidRequestException::new),
    UNSUPPORTED_FOR_MESSAGE_FORMAT(43, "The message format the server uses does not support this request.", false),
    POLICY_VIOLATION(44, "The request violates a configured policy.", false),
    OUT_OF_ORDER_SEQUENCE_NUMBER(45, "The broker received an out of order sequence number from an idempotent producer.",
        false, OutOfOrderSequenceException.class, OutOfOrderSequenceException::new),
    INVALID_PRODUCER_EPOCH(47, "The producer's epoch is older than the last one the partition has seen from it.", false,
        InvalidProducerEpochException.class, InvalidProducerEpochException::new),
    INVALID_TXN_STATE(48, "The transaction is not in a state that allows this request.", false),
    INVALID_PRODUCER_ID_MAPPING(49, "The producer id is not the one the transactional id currently has.", false),
    INVALID_TRANSACTION_TIMEOUT(50, "The transaction timeout is above the maximum the broker allows.", false),
    CONCURRENT_TRANSACTIONS(51, "Another operation on the same transaction is still in progress.", true),
    TRANSACTION_COORDINATOR_FENCED(52, "The coordinator writing the markers no longer coordinates this producer.", false),
    TRANSACTIONAL_ID_AUTHORIZATION_FAILED(53, "Transactions are not available to this client.", false),
    SECURITY_DISABLED(54, "Security features are disabled.", false),
    OPERATION_NOT_ATTEMPTED(55, "The operation was not attempted because another part of the request failed.", false),
    KAFKA_STORAGE_ERROR(56, "The partition's log directory is offline.", true,
        KafkaStorageException.class, KafkaStorageException::new),
    NON_EMPTY_GROUP(68, "The group still has members.", false),
    GROUP_ID_NOT_FOUND(69, "The group does not exist.", false),
    FETCH_SESSION_ID_NOT_FOUND(70, "The fetch session does not exist.", true),
    INVALID_FETCH_SESSION_EPOCH(71, "The fetch session epoch is invalid.", true),
    TOPIC_DELETION_DISABLED(73, "Topic deletion is disabled.", false),
    FENCED_LEADER_EPOCH(74, "The leader epoch in the request is older than the server's.", true),
    UNKNOWN_LEADER_EPOCH(75, "The leader epoch in the request is newer than the server's.", true),
    UNSUPPORTED_COMPRESSION_TYPE(76, "The consumer does not support the compression type of the records.", false),
    OFFSET_NOT_AVAILABLE(78, "The offset cannot be served yet, for example right after a leader change.", true),
    MEMBER_ID_REQUIRED(79, "The member must rejoin with the member id given in this answer.", false),
    PREFERRED_LEADER_NOT_AVAILABLE(80, "The preferred leader is not live or not in sync.", true),
    GROUP_MAX_SIZE_REACHED(81, "The group has reached its maximum size.", false),
    FENCED_INSTANCE_ID(82, "Another member with the same group instance id has joined.", false),
    ELIGIBLE_LEADERS_NOT_AVAILABLE(83, "No replica that may lead is live.", true),
    ELECTION_NOT_NEEDED(84, "The partition already has the leader the election would give it.", true),
    NO_REASSIGNMENT_IN_PROGRESS(85, "No partition reassignment is in progress.", false),
    GROUP_SUBSCRIBED_TO_TOPIC(86, "The group's members still subscribe to the topic, so its offsets stay.", false),
    INVALID_RECORD(87, "A record batch is invalid: bad magic, counts, lengths or compression.", false,
        InvalidRecordException.class, InvalidRecordException::new),
    UNSTABLE_OFFSET_COMMIT(88, "A transaction holding offsets of this partition is not yet committed or aborted.", true),
    THROTTLING_QUOTA_EXCEEDED(89, "The request exceeded a throttling quota.", true),
    PRODUCER_FENCED(90, "A newer producer with the same transactional id has fenced this one.", false),
    RESOURCE_NOT_FOUND(91, "A request illegally referred to a resource that does not exist.", false),
    DUPLICATE_RESOURCE(92, "A request illegally referred to the same resource twice.", false),
    UNKNOWN_TOPIC_ID(100, "This server does not host a topic with this id.", true),
    TRANSACTIONAL_ID_NOT_FOUND(105, "The transaction coordinator knows no transactional id of this name.", false),
    FENCED_MEMBER_EPOCH(110, "The member's epoch is fenced: it must give up its partitions and join again.", false),
    UNRELEASED_INSTANCE_ID(111, "Another member of the group still uses this instance id; it must leave first.", false),
    UNSUPPORTED_ASSIGNOR(112, "The group's coordinator has no assignor of this name.", false),
    STALE_MEMBER_EPOCH(113, "The member's epoch is stale: retry once the heartbeat has brought the current one.", false),
    MISMATCHED_ENDPOINT_TYPE(114, "The request was sent to an endpoint of the wrong type.", false),
    INVALID_REGULAR_EXPRESSION(128, "The regular expression is not valid.", false);

    private static final Map<Short, Errors> BY_CODE = new HashMap<>();
    private static final Map<Class<?>, Errors> BY_EXCEPTION = new HashMap<>();

    static {
        for (Errors error : values()) {
            BY_CODE.put(error.code, error);
            if (error.exceptionClass != ApiException.class) {
                BY_EXCEPTION.put(error.exceptionClass, error);
            }
        }
    }

    private final short code;
    private final String message;
    private final boolean retriable;
    private final Class<? extends MillraceException> exceptionClass;
    private final Function<String, MillraceException> factory;

    Errors(int code, String message, boolean retriable) {
        this.code = (short) code;
        this.message = message;
        this.retriable = retriable;
        this.exceptionClass = ApiException.class;
        this.factory = m -> new ApiException(this, m);
    }

    Errors(int code, String message, boolean retriable, Class<? extends MillraceException> exceptionClass,
           Function<String, MillraceException> factory) {
        this.code = (short) code;
        this.message = message;
        this.retriable = retriable;
        this.exceptionClass = exceptionClass;
        this.factory = factory;
    }

    public short code() {
        return code;
    }

    /** The message to send with this code when there is no better one. */
    public String message() {
        return message;
    }

    /** Whether a client may send the same request again and expect it to succeed. */
    public boolean isRetriable() {
        return retriable;
    }

    /** The exception a client raises for this code, with the default message; null for {@link #NONE}. */
    public MillraceException exception() {
        return exception(null);
    }

    /** The exception a client raises for this code; null for {@link #NONE}. */
    public MillraceException exception(String message) {
        if (this == NONE) {
            return null;
        }
        return factory.apply(message == null || message.isEmpty() ? this.message : message);
    }

    /** The error for a wire code; {@link #UNKNOWN_SERVER_ERROR} for codes Millrace does not know. */
    public static Errors forCode(short code) {
        return BY_CODE.getOrDefault(code, UNKNOWN_SERVER_ERROR);
    }

    /**
     * The code to answer a failure with: an {@link ApiException}'s own error, else the error of the
     * nearest superclass that has one (so a {@link CorruptRecordException} is CORRUPT_MESSAGE, not
     * INVALID_RECORD), else {@link #UNKNOWN_SERVER_ERROR}. Wrappers from futures
     * ({@link CompletionException}, {@link ExecutionException}) are looked through.
     */
    public static Errors forException(Throwable t) {
        Throwable cause = t;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause == null) {
            return NONE;
        }
        if (cause instanceof ApiException apiException) {
            return apiException.error();
        }
        for (Class<?> c = cause.getClass(); c != null; c = c.getSuperclass()) {
            Errors error = BY_EXCEPTION.get(c);
            if (error != null) {
                return error;
            }
        }
        return UNKNOWN_SERVER_ERROR;
    }
}
