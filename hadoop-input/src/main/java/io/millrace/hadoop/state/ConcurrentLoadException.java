package io.millrace.hadoop.state;

import java.io.IOException;

/** Another load committed the sequence number this load was about to commit: this load's data stays invisible. */
public class ConcurrentLoadException extends IOException {

    public ConcurrentLoadException(String message, Throwable cause) {
        super(message, cause);
    }
}
