package io.millrace.common.protocol;

import io.millrace.common.errors.MillraceException;

/**
 * Bytes that do not form a valid request or response: a truncated buffer, a negative or oversized
 * length, an array count larger than the bytes left could hold, an over-long varint. Parsing
 * untrusted protocol bytes throws only this family (this class and
 * {@link UnsupportedVersionException}), never a buffer, index or allocation error, so the broker
 * can answer {@link Errors#INVALID_REQUEST} (or close the connection) and keep serving.
 */
public class InvalidRequestException extends MillraceException {

    private static final long serialVersionUID = 1L;

    public InvalidRequestException(String message) {
        super(message);
    }
}
