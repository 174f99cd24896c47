package io.millrace.broker.cluster;

import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;

/**
 * A manual assignment of new partitions that cannot be followed: brokers that are not live or named
 * twice for a partition, another number of replicas than the topic has, or not one entry per new partition.
 * On the wire INVALID_REPLICA_ASSIGNMENT.
 */
public final class InvalidReplicaAssignmentException extends ApiException {

    private static final long serialVersionUID = 1L;

    public InvalidReplicaAssignmentException(String message) {
        super(Errors.INVALID_REPLICA_ASSIGNMENT, message);
    }
}
