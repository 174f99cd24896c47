package io.millrace.mirror;

/**
 * A fault the mirror cannot ride out: a record the offline cluster refuses for good, a topic it cannot
 * create or that has too few partitions. The mirror stops and commits nothing after the record it names.
 */
public class MirrorException extends RuntimeException {

    public MirrorException(String message) {
        super(message);
    }

    public MirrorException(String message, Throwable cause) {
        super(message, cause);
    }
}
