package io.millrace.common.client;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import io.millrace.common.config.ConfigException;
import java.net.InetSocketAddress;
import java.util.List;
import org.junit.Test;

public class BootstrapServersTest {

    @Test
    public void parsesHostsPortsAndIpv6() {
        List<InetSocketAddress> addresses = BootstrapServers.parse(" a:9092, b.example.com:19092 ,[::1]:9093");
        assertEquals(3, addresses.size());
        assertEquals("a", addresses.get(0).getHostString());
        assertEquals(19092, addresses.get(1).getPort());
        assertEquals("::1", addresses.get(2).getHostString());
    }

    @Test
    public void rejectsWhatIsNotHostColonPort() {
        for (String bad : new String[] {"", " , ", "host", "host:", ":9092", "host:port", "host:0", "host:70000"}) {
            try {
                BootstrapServers.parse(bad);
                fail("accepted '" + bad + "'");
            } catch (ConfigException expected) {
                // each names what is wrong
            }
        }
    }

    @Test
    public void nodeAddressesBracketIpv6() {
        assertEquals("[::1]:9092", new Node(-1, "::1", 9092).address());
        assertEquals("h:1", new Node(3, "h", 1).address());
    }
}
