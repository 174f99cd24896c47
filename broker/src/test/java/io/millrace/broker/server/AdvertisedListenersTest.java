package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;

import io.millrace.broker.cluster.ClusterConfig;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.network.NetworkConfig;
import io.millrace.common.utils.Time;
import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.TcpProxy;
import io.millrace.testkit.TestDirs;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.Rule;
import org.junit.Test;

/**
 * A broker behind a forwarder (as behind NAT or a container's port mapping) registers the address in
 * {@code advertised.listeners}, so Kafka's clients that bootstrap through the forwarder keep using it
 * for every request, and no client ever needs the address the broker bound.
 */
public class AdvertisedListenersTest {

    @Rule
    public final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();

    @Test(timeout = 60_000)
    public void clientsReachTheBrokerAtItsAdvertisedAddress() throws Exception {
        int boundPort = freePort();
        Path dir = TestDirs.create("advertised");
        try (TcpProxy proxy = new TcpProxy(boundPort)) {
            Broker broker = new Broker(new BrokerConfig(Map.of(
                ClusterConfig.BROKER_ID_CONFIG, 7,
                ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, zookeeper.connectString(),
                NetworkConfig.LISTENERS_CONFIG, "PLAINTEXT://127.0.0.1:" + boundPort,
                NetworkConfig.ADVERTISED_LISTENERS_CONFIG, "PLAINTEXT://127.0.0.1:" + proxy.port(),
                LogConfig.LOG_DIRS_CONFIG, dir.toString())), Time.SYSTEM);
            broker.startup();
            try {
                Map<String, Object> props = Map.of("bootstrap.servers", proxy.connectString());
                try (Admin admin = Admin.create(props)) {
                    Collection<Node> nodes = admin.describeCluster().nodes().get(30, TimeUnit.SECONDS);
                    assertEquals(1, nodes.size());
                    Node node = nodes.iterator().next();
                    assertEquals(7, node.id());
                    assertEquals(proxy.port(), node.port());
                    admin.createTopics(List.of(new NewTopic("behind-proxy", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
                }
                try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                    new StringSerializer())) {
                    RecordMetadata md = producer.send(new ProducerRecord<>("behind-proxy", "v")).get(30, TimeUnit.SECONDS);
                    assertEquals(0, md.offset());
                }
            } finally {
                broker.shutdown();
            }
        } finally {
            TestDirs.delete(dir);
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
