package io.millrace.consumer.internals;

import io.millrace.common.errors.MillraceException;

/** A ZooKeeper operation on a group's registries failed (connection loss, session expiry, ...). */
public class GroupRegistryException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public GroupRegistryException(String message, Throwable cause) {
        super(message, cause);
    }
}
