package io.millrace.broker.replica;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import io.millrace.common.config.ConfigException;
import java.util.Map;
import org.junit.Test;

/** A follower's receive buffer: left to the OS by default, where Kafka fixes 65536. */
public class ReplicaConfigTest {

    @Test
    public void theFollowersReceiveBufferIsTheOssUnlessASizeIsGiven() {
        assertEquals(-1, ReplicaConfig.DEFAULT.socketReceiveBufferBytes());
        assertEquals(65_536, new ReplicaConfig(Map.of(ReplicaConfig.REPLICA_SOCKET_RECEIVE_BUFFER_BYTES_CONFIG, 65_536))
            .socketReceiveBufferBytes());
        assertThrows(ConfigException.class,
            () -> new ReplicaConfig(Map.of(ReplicaConfig.REPLICA_SOCKET_RECEIVE_BUFFER_BYTES_CONFIG, -2)));
    }
}
