package io.millrace.consumer.tools;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import io.millrace.broker.tools.LocalCluster;
import io.millrace.common.serialization.StringDeserializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.GroupConsumer;
import io.millrace.consumer.KafkaProtocolGroupException;
import io.millrace.consumer.TestProducer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.Test;

/**
 * {@code consumer-groups} on a group of Kafka's protocol (Kafka's own KafkaConsumer against a
 * Millrace broker): listed, described with its members from the coordinator and its lag from the
 * shared offset registry, reset and deleted once empty; and the ZooKeeper group consumer refusing
 * to join such a group while it has members.
 */
public class KafkaGroupsToolTest {

    private static final String TOPIC = "kafka-described";
    private static LocalCluster cluster;
    private static TestProducer producer;

    @BeforeClass
    public static void start() throws Exception {
        cluster = LocalCluster.start(1, Map.of());
        producer = new TestProducer(cluster.bootstrapServers());
        cluster.createTopic(TOPIC, 2);
        producer.produce(TOPIC, 2, 10, "k");
    }

    @AfterClass
    public static void stop() {
        producer.close();
        cluster.close();
    }

    private record Run(int exitCode, String out, String err) {
        List<String> lines() {
            return out.isEmpty() ? List.of() : List.of(out.split("\n"));
        }
    }

    private static Run groups(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] all = new String[args.length + 2];
        all[0] = "--zookeeper";
        all[1] = cluster.zookeeperConnect();
        System.arraycopy(args, 0, all, 2, args.length);
        int code = ConsumerGroupsCommand.run(all, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static KafkaConsumer<byte[], byte[]> kafkaMember(String group) {
        Properties props = new Properties();
        props.put("bootstrap.servers", cluster.bootstrapServers());
        props.put("group.id", group);
        props.put("client.id", "kafka-reader");
        props.put("auto.offset.reset", "earliest");
        props.put("enable.auto.commit", "false");
        KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props, new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
        consumer.subscribe(List.of(TOPIC));
        int read = 0;
        long deadline = System.currentTimeMillis() + 30_000;
        while (read < 20) {
            read += consumer.poll(Duration.ofMillis(100)).count();
            assertTrue("read " + read + " of 20 within 30 s", System.currentTimeMillis() < deadline);
        }
        consumer.commitSync();
        return consumer;
    }

    @Test
    public void aKafkaGroupIsListedDescribedAndOnceEmptyResetAndDeleted() {
        String group = "kafka-tool";
        try (KafkaConsumer<byte[], byte[]> consumer = kafkaMember(group)) {
            assertTrue(groups("--list").lines().contains(group));
            Run described = groups("--describe", "--group", group);
            assertEquals(described.err, 0, described.exitCode);
            assertTrue(described.out, described.lines().get(0).startsWith("Group " + group
                + ": Kafka's group protocol, Stable, assignor range, coordinator broker 0, 1 member"));
            assertEquals(described.out, 4, described.lines().size());
            for (String row : described.lines().subList(2, 4)) {
                assertTrue(row, row.matches(TOPIC + "\\s+[01]\\s+10\\s+10\\s+0\\s+kafka-reader-\\S+ \\(kafka-reader, /127.0.0.1\\)"));
            }
            Run refused = groups("--reset-offsets", "--group", group, "--topic", TOPIC, "--to-earliest", "--execute");
            assertEquals(1, refused.exitCode);
            assertTrue(refused.err, refused.err.contains("Kafka's group protocol"));
            Run notDeleted = groups("--delete", "--group", group);
            assertEquals(1, notDeleted.exitCode);
        }
        Run empty = groups("--describe", "--group", group);
        assertTrue(empty.out, empty.lines().get(0).startsWith("Group " + group + ": Kafka's group protocol, Empty"));
        Run reset = groups("--reset-offsets", "--group", group, "--topic", TOPIC, "--to-earliest", "--execute");
        assertEquals(reset.err, 0, reset.exitCode);
        assertTrue(groups("--describe", "--group", group).lines().get(2).matches(TOPIC + "\\s+0\\s+0\\s+10\\s+10\\s+-\\s*"));
        Run deleted = groups("--delete", "--group", group);
        assertEquals(deleted.err, 0, deleted.exitCode);
        assertFalse(groups("--list").lines().contains(group));
    }

    @Test
    public void theZooKeeperGroupConsumerDoesNotJoinAGroupWithKafkaProtocolMembers() {
        String group = "kafka-owned";
        try (KafkaConsumer<byte[], byte[]> consumer = kafkaMember(group);
             GroupConsumer<String, String> intruder = new GroupConsumer<>(new ConsumerConfig(Map.of(
                 "zookeeper.connect", cluster.zookeeperConnect(), ConsumerConfig.GROUP_ID_CONFIG, group)),
                 new StringDeserializer(), new StringDeserializer())) {
            try {
                intruder.createMessageStreams(Map.of(TOPIC, 1));
                fail("registered in a group with Kafka-protocol members");
            } catch (KafkaProtocolGroupException expected) {
                assertTrue(expected.getMessage(), expected.getMessage().contains("one kind at a time"));
            }
        }
    }
}
