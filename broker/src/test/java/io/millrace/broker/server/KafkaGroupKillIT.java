package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.group.GroupConfig;
import io.millrace.testkit.Conditions;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.zookeeper.KeeperException;
import org.junit.ClassRule;
import org.junit.Test;
import org.junit.rules.RuleChain;
import org.junit.rules.TestRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Three Kafka consumers share a 12-partition topic on two Millrace brokers while one member joins,
 * one is killed (its process destroyed: no LeaveGroup, its heartbeats just stop, so only its session
 * timeout removes it) and one leaves; with commits after each batch and in onPartitionsRevoked, as
 * a Kafka user writes them, every record is read exactly once, with each of Kafka's assignors. With
 * the range and cooperative-sticky assignors the member killed is the group's leader.
 */
public class KafkaGroupKillIT {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaGroupKillIT.class);
    private static final EmbeddedZooKeeper ZOOKEEPER = new EmbeddedZooKeeper();
    private static final BrokerCluster CLUSTER = new BrokerCluster(ZOOKEEPER, 2, Map.of(
        GroupConfig.GROUP_MIN_SESSION_TIMEOUT_MS_CONFIG, 500));

    @ClassRule
    public static final TestRule RULES = RuleChain.outerRule(ZOOKEEPER).around(CLUSTER);

    private static final int PARTITIONS = 12;
    private static final int SESSION_MS = 2_000;
    private static final int BATCH = 240;

    private final Map<String, AtomicInteger> reads = new ConcurrentHashMap<>();

    @Test
    public void rangeAssignor() throws Exception {
        joinKillAndLeave("org.apache.kafka.clients.consumer.RangeAssignor", "range", true);
    }

    @Test
    public void roundRobinAssignor() throws Exception {
        joinKillAndLeave("org.apache.kafka.clients.consumer.RoundRobinAssignor", "round-robin", false);
    }

    @Test
    public void cooperativeStickyAssignor() throws Exception {
        joinKillAndLeave("org.apache.kafka.clients.consumer.CooperativeStickyAssignor", "cooperative", true);
    }

    /**
     * a and k read; c joins; k is killed once all it read is committed; a leaves; c reads on alone.
     * With {@code killLeader} k joins first, so the group's leader is the member killed.
     */
    private void joinKillAndLeave(String assignor, String name, boolean killLeader) throws Exception {
        String topic = name + "-kill-topic";
        String group = name + "-kill-group";
        CLUSTER.createTopic(topic, PARTITIONS, Map.of());
        produce(topic, 0, BATCH);
        Child first = killLeader ? new Child(group, topic, assignor, name + "-k") : null;
        if (killLeader) {
            try {
                Conditions.waitUntil(() -> first.owns.get() == PARTITIONS, 30_000, "k, the first member, owning every partition");
            } catch (AssertionError | RuntimeException e) {
                first.kill();
                throw e;
            }
        }
        PollingMember a = new PollingMember(props(group, assignor), topic, name + "-a", reads);
        Child k = killLeader ? first : new Child(group, topic, assignor, name + "-k");
        try {
            awaitReads(BATCH);
            PollingMember c = new PollingMember(props(group, assignor), topic, name + "-c", reads);
            Conditions.waitUntil(() -> a.assigned().size() == 4 && k.owns.get() == 4 && c.assigned().size() == 4, 30_000,
                "four partitions for each of three members");
            produce(topic, BATCH, BATCH);
            awaitReads(2 * BATCH);
            awaitCommitted(group, topic, 2 * BATCH);
            assertTrue("k read " + k.read.get(), k.read.get() > 0);

            long killed = System.nanoTime();
            k.kill();
            produce(topic, 2 * BATCH, BATCH);
            Conditions.waitUntil(() -> a.assigned().size() + c.assigned().size() == PARTITIONS, 30_000,
                "a and c taking over the killed member's partitions");
            long takeoverMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed);
            awaitReads(3 * BATCH);
            LOG.info("{}: the killed member's partitions were taken over {} ms after the kill (session {} ms)", name,
                takeoverMs, SESSION_MS);
            assertTrue("taken over after " + takeoverMs + " ms, before the session could end",
                takeoverMs >= SESSION_MS - 500);

            a.close();
            Conditions.waitUntil(() -> c.assigned().size() == PARTITIONS, 30_000, "c taking every partition");
            produce(topic, 3 * BATCH, BATCH);
            awaitReads(4 * BATCH);
            c.close();
            assertEachReadOnce(4 * BATCH);
            assertTrue("c read " + c.read(), c.read() > 0);
        } finally {
            k.kill();
            a.close();
        }
    }

    private static Properties props(String group, String assignor) {
        Properties props = CLUSTER.clientProps();
        props.put("group.id", group);
        props.put("partition.assignment.strategy", assignor);
        props.put("auto.offset.reset", "earliest");
        props.put("session.timeout.ms", Integer.toString(SESSION_MS));
        props.put("heartbeat.interval.ms", "200");
        props.put("max.poll.records", "50");
        return props;
    }

    private static void produce(String topic, int from, int count) throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(CLUSTER.clientProps(), new ByteArraySerializer(),
            new ByteArraySerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>(topic, i % PARTITIONS, null, ("r-" + i).getBytes(StandardCharsets.UTF_8)));
            }
            producer.flush();
        }
    }

    private void awaitReads(int total) {
        Conditions.waitUntil(() -> reads.size() >= total, 60_000, total + " distinct records read");
    }

    /** Waits until the group's commits, summed over the partitions, reach {@code total}. */
    private static void awaitCommitted(String group, String topic, long total) {
        Conditions.waitUntil(() -> committed(group, topic) == total, 30_000, total + " records committed");
    }

    private static long committed(String group, String topic) {
        long sum = 0;
        for (int p = 0; p < PARTITIONS; p++) {
            try {
                byte[] node = CLUSTER.broker(0).cluster().curator().getData()
                    .forPath("/millrace/consumers/" + group + "/offsets/" + topic + "/" + p);
                sum += Math.max(0, Long.parseLong(new String(node, StandardCharsets.UTF_8)));
            } catch (KeeperException.NoNodeException none) {
                // nothing committed for it yet
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }
        return sum;
    }

    private void assertEachReadOnce(int total) {
        assertEquals(total, reads.size());
        for (int i = 0; i < total; i++) {
            AtomicInteger n = reads.get("r-" + i);
            assertEquals("r-" + i, 1, n == null ? 0 : n.get());
        }
    }

    /** A {@link ChildGroupMember} process, whose reports go into the shared reads. */
    private final class Child {
        private final Process process;
        private final AtomicInteger owns = new AtomicInteger();
        private final AtomicInteger read = new AtomicInteger();

        Child(String group, String topic, String assignor, String name) throws IOException {
            process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                ChildGroupMember.class.getName(), CLUSTER.bootstrapServers(), group, topic, assignor, name,
                Integer.toString(SESSION_MS))
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
            Thread reader = new Thread(this::collect, name + "-output");
            reader.setDaemon(true);
            reader.start();
        }

        private void collect() {
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    if (line.startsWith(ChildGroupMember.READ)) {
                        reads.computeIfAbsent(line.substring(ChildGroupMember.READ.length()), v -> new AtomicInteger())
                            .incrementAndGet();
                        read.incrementAndGet();
                    } else if (line.startsWith(ChildGroupMember.OWNS)) {
                        owns.set(Integer.parseInt(line.substring(ChildGroupMember.OWNS.length()).trim()));
                    }
                }
            } catch (IOException | NumberFormatException e) {
                // killed
            }
        }

        void kill() throws InterruptedException {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
