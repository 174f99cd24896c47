package io.millrace.schemaregistry.server;

import static org.junit.Assert.assertTrue;

import io.millrace.testkit.EmbeddedZooKeeper;
import java.util.concurrent.TimeUnit;
import org.junit.Rule;
import org.junit.Test;

/** A registry told to stop while ZooKeeper is down stops within seconds, as the broker does. */
public class ShutdownWithoutZooKeeperTest {

    @Rule
    public final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();

    @Test(timeout = 120_000)
    public void aRegistryStopsWithinItsBoundWhenZooKeeperIsDown() throws Exception {
        SchemaRegistryServer registry = Registries.start(zookeeper);
        zookeeper.stop();
        long start = System.nanoTime();
        registry.close();
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue("close took " + tookMs + " ms with ZooKeeper down", tookMs < 10_000);
    }
}
