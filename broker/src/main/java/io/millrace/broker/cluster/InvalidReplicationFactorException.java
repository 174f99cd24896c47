package io.millrace.broker.cluster;

import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;

/**
 * A replication factor that cannot be placed: below 1, above the number of live brokers, or above
 * 1 while replication is not available. On the wire INVALID_REPLICATION_FACTOR.
 */
public final class InvalidReplicationFactorException extends ApiException {

    private static final long serialVersionUID = 1L;

    public InvalidReplicationFactorException(String message) {
        super(Errors.INVALID_REPLICATION_FACTOR, message);
    }
}
