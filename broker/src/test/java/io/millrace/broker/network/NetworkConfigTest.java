package io.millrace.broker.network;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigException;
import java.util.List;
import java.util.Map;
import org.junit.Test;

public class NetworkConfigTest {

    /** Kafka's defaults, but for the socket buffers: Kafka fixes 102400, Millrace leaves them to the OS (-1). */
    @Test
    public void defaultsAreKafkasButForTheSocketBuffers() {
        NetworkConfig config = new NetworkConfig(Map.of());
        assertEquals(List.of(new Endpoint("PLAINTEXT", "127.0.0.1", 9092)), config.listeners());
        assertEquals(104_857_600, config.socketRequestMaxBytes());
        assertEquals(3, config.numNetworkThreads());
        assertEquals(8, config.numIoThreads());
        assertEquals(500, config.queuedMaxRequests());
        assertEquals(-1, config.socketSendBufferBytes());
        assertEquals(-1, config.socketReceiveBufferBytes());
        assertEquals(600_000L, config.connectionsMaxIdleMs());
    }

    @Test
    public void parsesEveryListenerForm() {
        NetworkConfig config = new NetworkConfig(Map.of(NetworkConfig.LISTENERS_CONFIG, "plaintext://:0"));
        Endpoint any = config.listeners().get(0);
        assertEquals("", any.host());
        assertTrue(any.bindAddress().getAddress().isAnyLocalAddress());
        Endpoint v6 = Endpoint.parse("listeners", "PLAINTEXT://[::1]:9093");
        assertEquals("::1", v6.host());
        assertEquals(9093, v6.port());
        assertEquals("PLAINTEXT://[::1]:9093", v6.toString());
        assertEquals("PLAINTEXT://localhost:1", Endpoint.parse("listeners", " PLAINTEXT://localhost:1 ").toString());
    }

    @Test
    public void rejectsBadListenersAtStartup() {
        for (String bad : List.of("SSL://host:9093", "PLAINTEXT://host", "host:9092", "PLAINTEXT://host:65536",
            "PLAINTEXT://a:1,PLAINTEXT://b:2", "")) {
            ConfigException e = assertThrows(bad, ConfigException.class,
                () -> new NetworkConfig(Map.of(NetworkConfig.LISTENERS_CONFIG, bad)));
            assertTrue(e.getMessage(), e.getMessage().contains("listeners"));
        }
    }

    @Test
    public void rejectsOutOfRangeValuesNamingTheSetting() {
        for (String key : List.of(NetworkConfig.NUM_IO_THREADS_CONFIG, NetworkConfig.NUM_NETWORK_THREADS_CONFIG,
            NetworkConfig.QUEUED_MAX_REQUESTS_CONFIG, NetworkConfig.SOCKET_REQUEST_MAX_BYTES_CONFIG)) {
            ConfigException e = assertThrows(key, ConfigException.class, () -> new NetworkConfig(Map.of(key, "0")));
            assertTrue(e.getMessage(), e.getMessage().contains(key));
        }
        assertThrows(ConfigException.class,
            () -> new NetworkConfig(Map.of(NetworkConfig.SOCKET_SEND_BUFFER_BYTES_CONFIG, "-2")));
        assertEquals(-1, new NetworkConfig(Map.of(NetworkConfig.SOCKET_RECEIVE_BUFFER_BYTES_CONFIG, "-1"))
            .socketReceiveBufferBytes());
    }

    @Test
    public void queuedMaxRequestBytesIsUnboundedOrHoldsTheLargestRequest() {
        assertEquals(-1L, new NetworkConfig(Map.of()).queuedMaxRequestBytes());
        assertEquals(200L, new NetworkConfig(Map.of(NetworkConfig.SOCKET_REQUEST_MAX_BYTES_CONFIG, 200,
            NetworkConfig.QUEUED_MAX_REQUEST_BYTES_CONFIG, 200L)).queuedMaxRequestBytes());
        ConfigException e = assertThrows(ConfigException.class, () -> new NetworkConfig(Map.of(
            NetworkConfig.SOCKET_REQUEST_MAX_BYTES_CONFIG, 200, NetworkConfig.QUEUED_MAX_REQUEST_BYTES_CONFIG, 199L)));
        assertTrue(e.getMessage(), e.getMessage().contains("queued.max.request.bytes"));
    }

    @Test
    public void perIpOverridesAreHostCountPairs() throws Exception {
        NetworkConfig config = new NetworkConfig(Map.of(NetworkConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES_CONFIG,
            "127.0.0.1:5, localhost:7,::1:0"));
        assertEquals(Integer.valueOf(0), config.maxConnectionsPerIpOverrides().get(java.net.InetAddress.getByName("::1")));
        assertEquals(Integer.valueOf(7), config.maxConnectionsPerIpOverrides().get(java.net.InetAddress.getByName("localhost")));
        for (String bad : List.of("127.0.0.1", "127.0.0.1:x", ":5", "127.0.0.1:-1")) {
            ConfigException e = assertThrows(bad, ConfigException.class,
                () -> new NetworkConfig(Map.of(NetworkConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES_CONFIG, bad)));
            assertTrue(e.getMessage(), e.getMessage().contains("max.connections.per.ip.overrides"));
        }
    }

    @Test
    public void everySettingIsDeclaredOnceWithItsDocumentation() {
        List<String> names = List.of("listeners", "advertised.listeners", "socket.request.max.bytes", "num.network.threads", "num.io.threads",
            "queued.max.requests", "socket.send.buffer.bytes", "socket.receive.buffer.bytes", "connections.max.idle.ms",
            "max.connections", "max.connections.per.ip", "max.connections.per.ip.overrides", "queued.max.request.bytes");
        assertEquals(names.size(), NetworkConfig.CONFIG.keys().size());
        String table = NetworkConfig.CONFIG.toMarkdownTable();
        for (String name : names) {
            ConfigDef.ConfigKey key = NetworkConfig.CONFIG.key(name);
            assertFalse(name, key.documentation.isBlank());
            assertTrue(name, table.contains("`" + name + "`"));
        }
    }

    @Test
    public void advertisedListenersDefaultToTheListenersAndNameOneOfThem() {
        assertTrue(new NetworkConfig(Map.of()).advertisedListener("PLAINTEXT").isEmpty());
        NetworkConfig config = new NetworkConfig(Map.of(NetworkConfig.LISTENERS_CONFIG, "PLAINTEXT://:0",
            NetworkConfig.ADVERTISED_LISTENERS_CONFIG, "PLAINTEXT://broker-1.example.com:19092"));
        assertEquals(new Endpoint("PLAINTEXT", "broker-1.example.com", 19092), config.advertisedListener("PLAINTEXT").get());
    }

    @Test
    public void advertisedListenersNeedAReachableHostAPortAndAKnownListener() {
        for (String bad : List.of("PLAINTEXT://:19092", "PLAINTEXT://0.0.0.0:19092", "PLAINTEXT://host:0",
            "PLAINTEXT://a:1,PLAINTEXT://b:2", "PLAINTEXT//host:1")) {
            try {
                new NetworkConfig(Map.of(NetworkConfig.ADVERTISED_LISTENERS_CONFIG, bad));
                fail("accepted advertised.listeners=" + bad);
            } catch (ConfigException e) {
                assertTrue(e.getMessage(), e.getMessage().contains(NetworkConfig.ADVERTISED_LISTENERS_CONFIG));
            }
        }
    }
}
