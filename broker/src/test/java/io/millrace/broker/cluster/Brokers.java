package io.millrace.broker.cluster;

import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.MockTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.rules.ExternalResource;

/**
 * Brokers' cluster memberships for tests: each {@link ZkCluster} with its own Curator client,
 * all against one {@link EmbeddedZooKeeper}, closed after the test. Registration timestamps come
 * from a shared {@link MockTime}, so a test can tell one registration from the next.
 */
final class Brokers extends ExternalResource {

    static final int DEFAULT_SESSION_TIMEOUT_MS = 10_000;

    final MockTime time = new MockTime();
    private final EmbeddedZooKeeper zookeeper;
    private final List<ZkCluster> clusters = new ArrayList<>();

    Brokers(EmbeddedZooKeeper zookeeper) {
        this.zookeeper = zookeeper;
    }

    ZkCluster start(int brokerId) throws InterruptedException {
        return start(brokerId, DEFAULT_SESSION_TIMEOUT_MS);
    }

    ZkCluster start(int brokerId, int sessionTimeoutMs) throws InterruptedException {
        ZkCluster cluster = create(brokerId, sessionTimeoutMs, Map.of());
        cluster.start("host" + brokerId, 9090 + brokerId);
        return cluster;
    }

    ZkCluster create(int brokerId, int sessionTimeoutMs, Map<String, Object> overrides) {
        Map<String, Object> props = new HashMap<>();
        props.put(ClusterConfig.BROKER_ID_CONFIG, brokerId);
        props.put(ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, zookeeper.connectString());
        props.put(ClusterConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG, sessionTimeoutMs);
        props.put(ClusterConfig.ZOOKEEPER_CONNECTION_TIMEOUT_MS_CONFIG, 10_000);
        props.put(ClusterConfig.TOPIC_ADMIN_TIMEOUT_MS_CONFIG, 15_000);
        props.putAll(overrides);
        ZkCluster cluster = new ZkCluster(new ClusterConfig(props), time, new Random(brokerId));
        synchronized (clusters) {
            clusters.add(cluster);
        }
        return cluster;
    }

    @Override
    protected void after() {
        synchronized (clusters) {
            clusters.forEach(ZkCluster::close);
            clusters.clear();
        }
    }
}
