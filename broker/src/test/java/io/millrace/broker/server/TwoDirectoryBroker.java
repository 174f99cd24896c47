package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterConfig;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.log.LogFileOpener;
import io.millrace.broker.network.NetworkConfig;
import io.millrace.common.utils.Time;
import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.FaultyFileChannel;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.rules.ExternalResource;
import org.junit.rules.TemporaryFolder;

/**
 * A broker with two log directories, disk A and disk B, whose files in disk A fail on demand
 * ({@link #failDiskA()}): a disk that goes bad under a running broker.
 */
final class TwoDirectoryBroker extends ExternalResource {

    private final EmbeddedZooKeeper zookeeper;
    private final TemporaryFolder temp;
    private final FaultyFileChannel.Switch diskA = new FaultyFileChannel.Switch();
    private Path dirA;
    private Path dirB;
    private Broker broker;

    /** Needs {@code temp} and {@code zookeeper} started first (an outer rule). */
    TwoDirectoryBroker(TemporaryFolder temp, EmbeddedZooKeeper zookeeper) {
        this.temp = temp;
        this.zookeeper = zookeeper;
    }

    @Override
    protected void before() throws Throwable {
        dirA = temp.newFolder("disk-a").toPath().toAbsolutePath();
        dirB = temp.newFolder("disk-b").toPath().toAbsolutePath();
        Map<String, Object> props = new HashMap<>();
        props.put(ClusterConfig.BROKER_ID_CONFIG, 0);
        props.put(ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, zookeeper.connectString());
        props.put(NetworkConfig.LISTENERS_CONFIG, "PLAINTEXT://127.0.0.1:0");
        props.put(LogConfig.LOG_DIRS_CONFIG, dirA + "," + dirB);
        props.put(BrokerConfig.SHUTDOWN_TIMEOUT_MS_CONFIG, 5_000L);
        LogFileOpener opener = (path, options) -> {
            FileChannel channel = FileChannel.open(path, options);
            return path.toAbsolutePath().startsWith(dirA) ? new FaultyFileChannel(channel, diskA) : channel;
        };
        broker = new Broker(new BrokerConfig(props), Time.SYSTEM, opener);
        broker.startup();
    }

    @Override
    protected void after() {
        if (broker != null) {
            broker.shutdown();
        }
    }

    Broker broker() {
        return broker;
    }

    Path dirA() {
        return dirA;
    }

    Path dirB() {
        return dirB;
    }

    /** From now on every read and write of a file in disk A fails with an I/O error. */
    void failDiskA() {
        diskA.fail();
    }
}
