package io.millrace.broker.cluster;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.tools.ZooKeeperCommand;
import io.millrace.testkit.FreePorts;
import io.millrace.testkit.MockTime;
import io.millrace.testkit.TestDirs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.After;
import org.junit.Test;

public class StandaloneZooKeeperTest {

    private final Path dataDir = TestDirs.create("standalone-zk");

    @After
    public void deleteData() {
        TestDirs.delete(dataDir);
    }

    @Test
    public void servesOnLoopbackAndKeepsItsDataAcrossARestart() throws Exception {
        try (StandaloneZooKeeper server = new StandaloneZooKeeper("127.0.0.1", 0, dataDir, 200)) {
            server.start();
            assertTrue(server.connectString().startsWith("127.0.0.1:"));
            try (CuratorFramework client = connect(server)) {
                client.create().forPath("/kept", new byte[] {1, 2, 3});
            }
        }
        try (StandaloneZooKeeper again = new StandaloneZooKeeper("127.0.0.1", 0, dataDir, 200)) {
            again.start();
            try (CuratorFramework client = connect(again)) {
                assertArrayEquals(new byte[] {1, 2, 3}, client.getData().forPath("/kept"));
            }
        }
    }

    @Test
    public void brokersFormAClusterOnIt() throws Exception {
        try (StandaloneZooKeeper server = new StandaloneZooKeeper("127.0.0.1", 0, dataDir, 200)) {
            server.start();
            ClusterConfig config = new ClusterConfig(Map.of(ClusterConfig.BROKER_ID_CONFIG, 0,
                ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, server.connectString() + "/chroot"));
            try (ZkCluster broker = new ZkCluster(config, new MockTime())) {
                broker.start("localhost", 9092);
                Wait.get(broker.createTopic("on-standalone", 2, Map.of()));
                assertEquals(0, broker.metadata().leader("on-standalone", 1));
            }
            try (CuratorFramework client = connect(server)) {
                assertTrue(client.checkExists().forPath("/chroot/millrace/topics/on-standalone") != null);
            }
        }
    }

    @Test
    public void theCommandStopsCleanlyOnSigterm() throws Exception {
        int port = FreePorts.loopback();
        Path output = dataDir.resolve("console.txt");
        Process process = new ProcessBuilder(javaBinary(), "-cp", System.getProperty("java.class.path"),
            ZooKeeperCommand.class.getName(), "--port", String.valueOf(port), "--data-dir", dataDir.resolve("zk").toString())
            .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            Wait.until("the server is ready", () -> read(output).contains("ZooKeeper ready on 127.0.0.1:" + port));

            process.destroy(); // SIGTERM

            assertTrue("exited", process.waitFor(15, TimeUnit.SECONDS));
            assertTrue(read(output), read(output).contains("ZooKeeper on 127.0.0.1:" + port + " stopped"));
        } finally {
            process.destroyForcibly();
        }
        assertTrue(Files.isDirectory(dataDir.resolve("zk").resolve("version-2")));
    }

    private static String read(Path file) {
        try {
            return Files.exists(file) ? Files.readString(file) : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static CuratorFramework connect(StandaloneZooKeeper server) throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.newClient(server.connectString(), new RetryOneTime(100));
        client.start();
        assertTrue(client.blockUntilConnected(10, TimeUnit.SECONDS));
        return client;
    }

    private static String javaBinary() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
