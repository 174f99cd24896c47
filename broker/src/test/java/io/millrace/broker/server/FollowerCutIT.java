package io.millrace.broker.server;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import io.millrace.broker.cluster.ClusterConfig;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.network.NetworkConfig;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ProduceRequest;
import io.millrace.common.protocol.message.ProduceResponse;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.utils.Time;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.FreePorts;
import io.millrace.testkit.TcpProxy;
import io.millrace.testkit.TestDirs;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;

/**
 * Three brokers, each reached by everyone else (clients and the other brokers) through a TCP forwarder
 * of its own ({@code advertised.listeners}), and a partition with three replicas and
 * {@code min.insync.replicas=2}. Cutting the leader's forwarder cuts its followers off: the leader,
 * still written to directly, drops them from the in-sync set after {@code replica.lag.time.max.ms},
 * from then on refuses acks=all with NOT_ENOUGH_REPLICAS, and once the cut heals the followers catch
 * up, rejoin, and hold logs byte for byte equal to the leader's.
 */
public class FollowerCutIT {

    private static final String TOPIC = "cut";
    private static final int BROKERS = 3;

    @Rule
    public final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();

    private final List<Broker> brokers = new ArrayList<>();
    private final List<TcpProxy> proxies = new ArrayList<>();
    private final List<Path> dirs = new ArrayList<>();
    private Admin admin;

    @Before
    public void setUp() throws Exception {
        for (int id = 0; id < BROKERS; id++) {
            int port = FreePorts.loopback();
            TcpProxy proxy = new TcpProxy(port);
            proxies.add(proxy);
            Path dir = TestDirs.create("cut-broker-" + id);
            dirs.add(dir);
            Broker broker = new Broker(new BrokerConfig(Map.of(
                ClusterConfig.BROKER_ID_CONFIG, id,
                ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, zookeeper.connectString(),
                NetworkConfig.LISTENERS_CONFIG, "PLAINTEXT://127.0.0.1:" + port,
                NetworkConfig.ADVERTISED_LISTENERS_CONFIG, "PLAINTEXT://127.0.0.1:" + proxy.port(),
                LogConfig.LOG_DIRS_CONFIG, dir.toString(),
                "replica.lag.time.max.ms", 2_000)), Time.SYSTEM);
            broker.startup();
            brokers.add(broker);
        }
        StringJoiner bootstrap = new StringJoiner(",");
        proxies.forEach(p -> bootstrap.add(p.connectString()));
        admin = Admin.create(Map.of("bootstrap.servers", bootstrap.toString()));
    }

    @After
    public void tearDown() throws Exception {
        if (admin != null) {
            admin.close();
        }
        proxies.forEach(TcpProxy::heal);
        brokers.forEach(Broker::shutdown);
        for (TcpProxy proxy : proxies) {
            proxy.close();
        }
        dirs.forEach(TestDirs::delete);
    }

    @Test(timeout = 180_000)
    public void aCutOffFollowerLeavesTheInSyncSetAndRejoinsWithTheLeadersLog() throws Exception {
        admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3).configs(Map.of("min.insync.replicas", "2"))))
            .all().get(60, TimeUnit.SECONDS);
        awaitIsr(3);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of("bootstrap.servers",
            proxies.get(0).connectString(), "acks", "all"), new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, "before-" + i)).get(30, TimeUnit.SECONDS);
            }
        }
        int leader = describe().leader().id();

        proxies.get(leader).cut();
        assertEquals(Errors.NONE, produceDirectly(leader, (short) 1, "during-"));
        awaitIsr(1);
        assertEquals("acks=all with the leader alone in sync", Errors.NOT_ENOUGH_REPLICAS,
            produceDirectly(leader, (short) -1, "refused-"));

        proxies.get(leader).heal();
        awaitIsr(3);
        Conditions.waitUntil(() -> logsEqual(leader), 30_000, "every replica's log equal to the leader's");
    }

    private Errors produceDirectly(int broker, short acks, String prefix) throws Exception {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 4096);
        for (int i = 0; i < 20; i++) {
            builder.append(System.currentTimeMillis(), (byte[]) null, (prefix + i).getBytes(StandardCharsets.UTF_8));
        }
        ByteBuffer records = builder.build();
        try (RawClient client = new RawClient(brokers.get(broker).boundPort())) {
            ProduceResponse response = client.call(new ProduceRequest(null, acks, 5_000, List.of(
                new ProduceRequest.TopicData(TOPIC, List.of(new ProduceRequest.PartitionData(0, records))))), (short) 9);
            return response.responses().get(0).partitionResponses().get(0).error();
        }
    }

    private boolean logsEqual(int leader) {
        try {
            byte[] expected = logBytes(leader);
            for (int id = 0; id < BROKERS; id++) {
                assertArrayEquals("broker " + id + "'s log against leader " + leader + "'s", expected, logBytes(id));
            }
            return true;
        } catch (AssertionError | Exception e) {
            return false;
        }
    }

    /** Every segment of the partition on {@code broker}, in offset order, end to end. */
    private byte[] logBytes(int broker) throws Exception {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        try (Stream<Path> files = Files.list(dirs.get(broker).resolve(TOPIC + "-0"))) {
            for (Path segment : files.filter(f -> f.toString().endsWith(".log")).sorted().toList()) {
                all.write(Files.readAllBytes(segment));
            }
        }
        return all.toByteArray();
    }

    private TopicPartitionInfo describe() throws Exception {
        TopicDescription d = admin.describeTopics(List.of(TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS).get(TOPIC);
        return d.partitions().get(0);
    }

    private void awaitIsr(int size) {
        Conditions.waitUntil(() -> {
            try {
                TopicPartitionInfo p = describe();
                return p.leader() != null && !p.leader().isEmpty() && p.isr().size() == size;
            } catch (Exception e) {
                return false;
            }
        }, 60_000, size + " replicas in sync");
    }
}
