package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.common.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.Test;

public class ClusterConfigTest {

    @Test
    public void needsABrokerIdAndAConnectStringAndDefaultsTheRest() {
        assertThrows(ConfigException.class, () -> new ClusterConfig(Map.of(ClusterConfig.BROKER_ID_CONFIG, "1")));
        ClusterConfig config = new ClusterConfig(Map.of(ClusterConfig.BROKER_ID_CONFIG, "1",
            ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, "zk:2181", ClusterConfig.BROKER_RACK_CONFIG, ""));
        assertEquals(1, config.brokerId());
        assertEquals(18_000, config.sessionTimeoutMs());
        assertNull(config.rack());
    }

    @Test
    public void rejectsNegativeBrokerIds() {
        assertThrows(ConfigException.class, () -> new ClusterConfig(Map.of(ClusterConfig.BROKER_ID_CONFIG, "-1",
            ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, "zk:2181")));
    }

    @Test
    public void theZooKeeperDocListsEverySettingAsDeclared() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "zookeeper.md"));
        String table = ClusterConfig.CONFIG_DEF.toMarkdownTable();
        assertTrue("docs/zookeeper.md should contain, generated from ClusterConfig:\n" + table, doc.contains(table));
    }
}
