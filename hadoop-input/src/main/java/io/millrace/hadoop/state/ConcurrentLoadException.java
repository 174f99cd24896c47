package io.millrace.hadoop.state;

import java.io.IOException;

/**
 * Another load of the same state directory is running (it holds the load lock), or committed the
 * sequence number this load was about to commit: this load committed nothing.
 */
public class ConcurrentLoadException extends IOException {

    public ConcurrentLoadException(String message) {
        super(message);
    }

    public ConcurrentLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
