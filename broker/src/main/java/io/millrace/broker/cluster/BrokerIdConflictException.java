package io.millrace.broker.cluster;

import io.millrace.common.errors.MillraceException;

/** Another live ZooKeeper session holds this broker's id: two brokers were given the same {@code broker.id}. */
public class BrokerIdConflictException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public BrokerIdConflictException(String message) {
        super(message);
    }
}
