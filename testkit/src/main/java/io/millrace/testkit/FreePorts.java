package io.millrace.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports for servers that must be named before they start: a broker process's listener, a
 * port kept across a restart. The port the OS gives a socket bound to port 0 comes from the
 * ephemeral range, the range every outgoing connection on the machine takes its local port from, so
 * between a test picking it and its server binding it, a connection of another test can take it
 * ("Address already in use"). These come from below that range, where only a server binding the
 * port by number can take it.
 */
public final class FreePorts {

    /** The lowest port handed out: above the well-known and most registered service ports. */
    static final int LOWEST = 10_000;
    private static final Path EPHEMERAL_RANGE = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    private static final int DEFAULT_EPHEMERAL_START = 32_768;
    private static final int ATTEMPTS = 100;

    private FreePorts() {
    }

    /** A loopback port nothing listens on now, below the ephemeral range when there is room there. */
    public static int loopback() throws IOException {
        int end = ephemeralStart();
        if (end - LOWEST >= 1_000) {
            for (int i = 0; i < ATTEMPTS; i++) {
                int port = ThreadLocalRandom.current().nextInt(LOWEST, end);
                if (bindable(port)) {
                    return port;
                }
            }
        }
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The first port of this machine's ephemeral range (Linux's setting, or its default elsewhere). */
    static int ephemeralStart() {
        try {
            // readAllLines, not readString: readString returns a single byte of this procfs file
            return Integer.parseInt(Files.readAllLines(EPHEMERAL_RANGE).get(0).trim().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return DEFAULT_EPHEMERAL_START;
        }
    }

    private static boolean bindable(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
