package io.millrace.broker.cluster;

import io.millrace.common.errors.InvalidPartitionsException;
import io.millrace.common.errors.InvalidTopicException;
import io.millrace.common.errors.MillraceException;
import io.millrace.common.errors.TopicExistsException;
import io.millrace.common.errors.UnknownTopicOrPartitionException;
import java.util.function.Function;

/**
 * Why the controller rejected an admin request. The controller writes the name into the request
 * znode; the requester turns it back into the exception here, so both ends agree on one list.
 */
enum AdminError {
    TOPIC_ALREADY_EXISTS(TopicExistsException.class, TopicExistsException::new),
    INVALID_PARTITIONS(InvalidPartitionsException.class, InvalidPartitionsException::new),
    INVALID_TOPIC(InvalidTopicException.class, InvalidTopicException::new),
    UNKNOWN_TOPIC_OR_PARTITION(UnknownTopicOrPartitionException.class, UnknownTopicOrPartitionException::new),
    INVALID_REPLICA_ASSIGNMENT(InvalidReplicaAssignmentException.class, InvalidReplicaAssignmentException::new),
    INVALID_REPLICATION_FACTOR(InvalidReplicationFactorException.class, InvalidReplicationFactorException::new),
    /** Anything else: malformed request data, no live broker to assign partitions to. */
    INVALID_REQUEST(MillraceException.class, MillraceException::new);

    private final Class<? extends MillraceException> type;
    private final Function<String, MillraceException> factory;

    AdminError(Class<? extends MillraceException> type, Function<String, MillraceException> factory) {
        this.type = type;
        this.factory = factory;
    }

    MillraceException exception(String message) {
        return factory.apply(message);
    }

    /** The error for an exception raised while checking a request. */
    static AdminError of(MillraceException e) {
        for (AdminError error : values()) {
            if (error != INVALID_REQUEST && error.type.isInstance(e)) {
                return error;
            }
        }
        return INVALID_REQUEST;
    }

    /** The exception a requester raises for an error name read from ZooKeeper. */
    static MillraceException exception(String name, String message) {
        for (AdminError error : values()) {
            if (error.name().equals(name)) {
                return error.exception(message);
            }
        }
        return INVALID_REQUEST.exception(name + ": " + message);
    }
}
