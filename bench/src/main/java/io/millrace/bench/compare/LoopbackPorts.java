package io.millrace.bench.compare;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/** Loopback ports for processes whose configuration must name their ports before they start. */
final class LoopbackPorts {

    static final String HOST = "127.0.0.1";

    private LoopbackPorts() {
    }

    /**
     * A port nothing listens on right now. Another process could take it before ours binds it;
     * on a bench machine that race is rare enough to accept in exchange for fixed configurations.
     */
    static int free() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return s.getLocalPort();
        }
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
