package io.millrace.common.serialization;

import io.millrace.common.errors.MillraceException;

/** A key or value could not be serialized or deserialized. Not retriable: the same bytes fail again. */
public class SerializationException extends MillraceException {

    public SerializationException(String message) {
        super(message);
    }

    public SerializationException(String message, Throwable cause) {
        super(message, cause);
    }
}
