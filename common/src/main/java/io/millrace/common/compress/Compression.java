package io.millrace.common.compress;

import io.millrace.common.record.CompressionType;
import io.millrace.common.utils.ByteBufferOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;

/**
 * The one place that sees the compression libraries: wraps streams for a batch's records.
 */
public final class Compression {

    private Compression() {
    }

    /** A stream that compresses what is written to it into {@code out}; closing it finishes the frame. */
    public static OutputStream wrapForOutput(CompressionType type, ByteBufferOutputStream out) {
        throw new UnsupportedOperationException("compression " + type + " is not implemented yet");
    }

    /** A stream that decompresses the bytes between {@code in}'s position and limit. */
    public static InputStream wrapForInput(CompressionType type, ByteBuffer in) {
        throw new UnsupportedOperationException("compression " + type + " is not implemented yet");
    }
}
