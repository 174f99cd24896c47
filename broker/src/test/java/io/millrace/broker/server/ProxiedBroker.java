package io.millrace.broker.server;

import io.millrace.broker.network.NetworkConfig;
import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.TcpProxy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import org.junit.rules.ExternalResource;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;

/**
 * One broker that clients reach only through a {@link TcpProxy}: the broker advertises the proxy's
 * address, so every connection a Kafka client makes after bootstrap goes through it too. Use
 * {@link #rules()} as the test class's rule.
 */
final class ProxiedBroker {

    // The broker's port stays taken until the broker binds it, so neither the proxy nor ZooKeeper gets it.
    private final ServerSocket reserved;
    private final TcpProxy proxy;
    private final EmbeddedZooKeeper zooKeeper = new EmbeddedZooKeeper();
    private final BrokerCluster cluster;

    ProxiedBroker() {
        try {
            reserved = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            proxy = new TcpProxy(reserved.getLocalPort());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        cluster = new BrokerCluster(zooKeeper, 1, Map.of(
            NetworkConfig.LISTENERS_CONFIG, "PLAINTEXT://127.0.0.1:" + reserved.getLocalPort(),
            NetworkConfig.ADVERTISED_LISTENERS_CONFIG, "PLAINTEXT://" + proxy.connectString()));
    }

    /** ZooKeeper, the port handed to the broker, the broker, and the proxy closed after them. */
    TestRule rules() {
        return RuleChain.outerRule(new ExternalResource() {
            @Override
            protected void after() {
                try {
                    proxy.close();
                } catch (IOException e) {
                    // closing a loopback listener
                }
            }
        }).around(zooKeeper).around(new ExternalResource() {
            @Override
            protected void before() throws IOException {
                reserved.close();
            }
        }).around(cluster);
    }

    TcpProxy proxy() {
        return proxy;
    }

    BrokerCluster cluster() {
        return cluster;
    }
}
