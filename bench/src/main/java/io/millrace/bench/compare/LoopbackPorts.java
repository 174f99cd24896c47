package io.millrace.bench.compare;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/**
 * The loopback address the bench's broker processes listen on, and whether one accepts connections yet. Their
 * ports come from {@code FreePorts}, below the range outgoing connections take theirs from.
 */
final class LoopbackPorts {

    static final String HOST = "127.0.0.1";

    private LoopbackPorts() {
    }

    /** Whether something accepts connections on the port. */
    static boolean accepts(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(HOST, port), 1_000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
