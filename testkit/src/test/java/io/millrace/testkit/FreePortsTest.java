package io.millrace.testkit;

import static org.junit.Assert.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.Test;

public class FreePortsTest {

    @Test
    public void handsOutBindablePortsBelowTheEphemeralRange() throws Exception {
        int start = FreePorts.ephemeralStart();
        assertTrue("a plausible range start: " + start, start > 1_024 && start <= 65_535);
        for (int i = 0; i < 20; i++) {
            int port = FreePorts.loopback();
            if (start - FreePorts.LOWEST >= 1_000) {
                assertTrue(port + " below " + start, port >= FreePorts.LOWEST && port < start);
            }
            try (ServerSocket server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertTrue(server.isBound());
            }
        }
    }

    @Test
    public void skipsAPortSomethingListensOn() throws Exception {
        int taken = FreePorts.loopback();
        try (ServerSocket server = new ServerSocket(taken, 1, InetAddress.getLoopbackAddress())) {
            for (int i = 0; i < 200; i++) {
                assertTrue("never the listening port", FreePorts.loopback() != taken);
            }
        }
    }
}
