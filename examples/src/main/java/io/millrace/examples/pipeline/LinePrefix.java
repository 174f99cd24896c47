package io.millrace.examples.pipeline;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;

/** An output stream that writes each complete line to {@code target} after a prefix, so two sources can share a terminal. */
final class LinePrefix extends OutputStream {

    private final String prefix;
    private final PrintStream target;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    LinePrefix(String prefix, PrintStream target) {
        this.prefix = prefix;
        this.target = target;
    }

    @Override
    public synchronized void write(int b) {
        if (b == '\n') {
            flushLine();
        } else {
            line.write(b);
        }
    }

    @Override
    public synchronized void close() {
        if (line.size() > 0) {
            flushLine();
        }
    }

    private void flushLine() {
        synchronized (target) {
            target.print(prefix);
            target.println(line.toString(java.nio.charset.StandardCharsets.UTF_8));
        }
        line.reset();
    }
}
