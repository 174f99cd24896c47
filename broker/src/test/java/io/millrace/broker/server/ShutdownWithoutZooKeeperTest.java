package io.millrace.broker.server;

import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.LogConfig;
import io.millrace.broker.log.LogFileNames;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * A broker told to stop while its ZooKeeper is down stops within its bound, logs flushed and marked
 * clean, instead of retrying to leave the cluster for tens of seconds.
 */
public class ShutdownWithoutZooKeeperTest {

    private final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();
    private final BrokerCluster cluster = new BrokerCluster(zookeeper, 1,
        Map.of(BrokerConfig.SHUTDOWN_ZOOKEEPER_TIMEOUT_MS_CONFIG, 2_000L));

    @Rule
    public final TestRule rules = RuleChain.outerRule(zookeeper).around(cluster);

    @Test(timeout = 120_000)
    public void aBrokerStopsWithinItsBoundAndCleanWhenZooKeeperIsDown() throws Exception {
        cluster.createTopic("kept", 2, Map.of());
        Path logDir = Path.of((String) cluster.config(0).get(LogConfig.LOG_DIRS_CONFIG));
        zookeeper.stop();
        long start = System.nanoTime();
        cluster.stop(0);
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue("shutdown took " + tookMs + " ms with ZooKeeper down", tookMs < 2_000 + 5_000);
        assertTrue("the next start skips recovery", Files.exists(logDir.resolve(LogFileNames.CLEAN_SHUTDOWN_MARKER)));
    }
}
