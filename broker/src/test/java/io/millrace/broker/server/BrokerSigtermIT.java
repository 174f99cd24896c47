package io.millrace.broker.server;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.LogFileNames;
import io.millrace.testkit.ChildOutput;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The broker as an operator runs it, in a process of its own: with its ZooKeeper stopped first, a
 * SIGTERM ends the process within the bound (requests drained, logs flushed, at most
 * broker.shutdown.zookeeper.timeout.ms to leave the cluster), with the clean-shutdown marker written;
 * started again, it loads its logs without a recovery scan and serves every record it had.
 */
public class BrokerSigtermIT {

    private static final long ZOOKEEPER_TIMEOUT_MS = 3_000;
    /** JVM start-up is not in the measure; exit (thread shutdown, hooks) gets this much beyond the timeout. */
    private static final long EXIT_MARGIN_MS = 7_000;
    private static final Pattern READY = Pattern.compile("ready on port (\\d+)");

    @Rule
    public final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();

    @Rule
    public final TemporaryFolder temp = new TemporaryFolder();

    @Test(timeout = 180_000)
    public void sigtermEndsTheBrokerWithinItsBoundWhileZooKeeperIsDownAndTheNextStartSkipsRecovery() throws Exception {
        Path logDir = temp.newFolder("logs").toPath();
        Broker first = start(logDir);
        try {
            produce(first.port, 10);
            zookeeper.stop();
            long start = System.nanoTime();
            first.process.destroy();   // SIGTERM
            assertTrue("the broker did not stop within 60 s", first.process.waitFor(60, TimeUnit.SECONDS));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue("SIGTERM to exit took " + tookMs + " ms with ZooKeeper down (timeout " + ZOOKEEPER_TIMEOUT_MS
                + " ms)", tookMs < ZOOKEEPER_TIMEOUT_MS + EXIT_MARGIN_MS);
            assertTrue("the clean-shutdown marker", Files.exists(logDir.resolve(LogFileNames.CLEAN_SHUTDOWN_MARKER)));
        } finally {
            first.process.destroyForcibly();
        }

        zookeeper.restart();
        // The first broker could not end its ZooKeeper session while ZooKeeper was down: its registration
        // lives until the session expires, and a broker with the same id refuses to start meanwhile, as
        // Kafka's does. Start again until it expires.
        Broker second = startOnceRegistrationExpired(logDir);
        try {
            String startLog = String.join("\n", second.linesUntilReady);
            assertTrue(startLog, startLog.contains("after a clean shutdown"));
            assertFalse("no recovery scan: " + startLog, startLog.contains("Recovering segment"));
            assertEquals(10, consumeAll(second.port));
        } finally {
            second.process.destroyForcibly();
        }
    }

    private record Broker(Process process, int port, List<String> linesUntilReady) {
    }

    private Broker startOnceRegistrationExpired(Path logDir) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                return start(logDir);
            } catch (AssertionError e) {
                if (!e.getMessage().contains("BrokerIdConflictException") || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(1_000);
            }
        }
    }

    private Broker start(Path logDir) throws Exception {
        Process process = new ProcessBuilder(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), "io.millrace.broker.tools.BrokerMain",
            "--override", "broker.id=0",
            "--override", "zookeeper.connect=" + zookeeper.connectString(),
            "--override", "listeners=PLAINTEXT://127.0.0.1:0",
            "--override", "broker.shutdown.zookeeper.timeout.ms=" + ZOOKEEPER_TIMEOUT_MS,
            "--override", "zookeeper.session.timeout.ms=4000",
            "--override", "log.dirs=" + logDir))
            .redirectErrorStream(true).start();
        try {
            ChildOutput.Ready ready = ChildOutput.awaitLine(process, READY, Duration.ofSeconds(60));
            return new Broker(process, Integer.parseInt(ready.match().group(1)), ready.lines());
        } catch (AssertionError e) {
            process.destroyForcibly();
            throw e;
        }
    }

    private static void produce(int port, int count) throws Exception {
        Map<String, Object> props = Map.of("bootstrap.servers", "127.0.0.1:" + port);
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic("kept", 1, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>("kept", 0, null, "record-" + i)).get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static int consumeAll(int port) {
        Map<String, Object> props = Map.of("bootstrap.servers", "127.0.0.1:" + port, "enable.auto.commit", "false");
        TopicPartition tp = new TopicPartition("kept", 0);
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (values.size() < 10 && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
        }
        return values.size();
    }
}
