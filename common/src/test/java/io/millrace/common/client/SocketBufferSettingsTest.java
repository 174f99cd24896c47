package io.millrace.common.client;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import io.millrace.common.config.AbstractConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigException;
import java.util.Map;
import org.junit.Test;

/** The clients' socket buffers: left to the OS unless a size is given, where Kafka's clients fix one. */
public class SocketBufferSettingsTest {

    private static final class ClientConfig extends AbstractConfig {
        ClientConfig(Map<?, ?> originals) {
            super(CommonClientConfigs.define(new ConfigDef(), 30_000), originals);
        }
    }

    @Test
    public void byDefaultTheOsSizesBothBuffers() {
        NetworkClient.Options options = CommonClientConfigs.networkOptions(new ClientConfig(Map.of()), "c");
        assertEquals(-1, options.sendBufferBytes());
        assertEquals(-1, options.receiveBufferBytes());
        NetworkClient.Options internal = NetworkClient.Options.defaults("tools");
        assertEquals(-1, internal.sendBufferBytes());
        assertEquals(-1, internal.receiveBufferBytes());
    }

    @Test
    public void aSizeGivenIsKept() {
        NetworkClient.Options options = CommonClientConfigs.networkOptions(new ClientConfig(Map.of(
            CommonClientConfigs.SEND_BUFFER_CONFIG, 131_072, CommonClientConfigs.RECEIVE_BUFFER_CONFIG, 65_536)), "c");
        assertEquals(131_072, options.sendBufferBytes());
        assertEquals(65_536, options.receiveBufferBytes());
        assertEquals(32_768, NetworkClient.Options.defaults("fetcher").withReceiveBufferBytes(32_768).receiveBufferBytes());
    }

    @Test
    public void aSizeBelowMinusOneIsRefused() {
        assertThrows(ConfigException.class, () -> new ClientConfig(Map.of(CommonClientConfigs.RECEIVE_BUFFER_CONFIG, -2)));
    }
}
