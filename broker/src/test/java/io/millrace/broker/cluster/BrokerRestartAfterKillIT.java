package io.millrace.broker.cluster;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.ChildOutput;
import io.millrace.testkit.EmbeddedZooKeeper;
import io.millrace.testkit.FreePorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.zookeeper.data.Stat;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A broker in a process of its own is killed with SIGKILL, so its ZooKeeper session is neither
 * closed nor kept alive and its registration outlives it, and is started again at once on the same
 * listener: the new process ends the old session, which its previous run recorded in the log
 * directory, registers, and serves the records written before the kill, from a single start with no
 * retries by hand. Without that record it waits for the old session to expire instead. A producer
 * writing from the restart on has its records kept by the topic's own settings, never by the
 * broker's defaults meanwhile.
 */
public class BrokerRestartAfterKillIT {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerRestartAfterKillIT.class);
    /** Long enough that a restart which waited for the old session to expire could not pass for one that ended it. */
    private static final int LONG_SESSION_TIMEOUT_MS = 30_000;
    private static final int SHORT_SESSION_TIMEOUT_MS = 6_000;
    private static final int RECORDS = 10;
    private static final String TOPIC = "survives-kill";
    private static final String SMALL = "small-segments";
    private static final int SMALL_SEGMENT_BYTES = 2048;
    private static final Pattern READY = Pattern.compile("ready on port (\\d+)");
    private static final Pattern WAITED = Pattern.compile("registered after waiting (\\d+) ms");
    private static final Pattern ENDED = Pattern.compile("Ended that session in (\\d+) ms");

    @Rule
    public final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();

    @Rule
    public final TemporaryFolder temp = new TemporaryFolder();

    @Test(timeout = 180_000)
    public void aBrokerStartedAgainRightAfterSigkillEndsItsOldSessionAndComesBackAtOnce() throws Exception {
        Path logDir = temp.newFolder("logs").toPath();
        int port = FreePorts.loopback();
        try (CuratorFramework observer = CuratorFrameworkFactory.newClient(zookeeper.connectString(), new RetryOneTime(100))) {
            observer.start();
            long oldSession = runAndKill(logDir, port, observer, LONG_SESSION_TIMEOUT_MS);
            assertTrue("the killed broker recorded its session", Files.exists(logDir.resolve(PreviousSession.FILE_NAME)));

            long restarted = System.nanoTime();
            Process second = start(logDir, port, LONG_SESSION_TIMEOUT_MS);
            SmallSegmentWriter writer = new SmallSegmentWriter(port);
            writer.start();
            try {
                ChildOutput.Ready ready = ChildOutput.awaitLine(second, READY, Duration.ofSeconds(60));
                long readyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restarted);
                String startLog = String.join("\n", ready.lines());
                Matcher ended = ENDED.matcher(startLog);
                assertTrue("the restarted broker ended its old session: " + startLog, ended.find());
                assertTrue("ready " + readyMs + " ms after the restart: it waited for the old session",
                    readyMs < LONG_SESSION_TIMEOUT_MS / 2);
                assertNotEquals(oldSession, observer.checkExists().forPath(ClusterPaths.broker(0)).getEphemeralOwner());
                assertEquals(RECORDS, consumeAll(port));
                writer.finishAfter(Duration.ofSeconds(1));
                assertTrue("records were written across the restart", writer.acknowledged() > 0);
                assertSegmentsWithin(logDir.resolve(SMALL + "-0"), SMALL_SEGMENT_BYTES);
                LOG.info("Restarted after SIGKILL: ready {} ms after the new process started, {} ms of it ending the old session "
                    + "(session timeout {} ms)", readyMs, ended.group(1), LONG_SESSION_TIMEOUT_MS);
            } finally {
                writer.finishAfter(Duration.ZERO);
                second.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    @Test(timeout = 180_000)
    public void withoutItsRecordedSessionTheRestartedBrokerWaitsOutItsOldRegistration() throws Exception {
        Path logDir = temp.newFolder("logs").toPath();
        int port = FreePorts.loopback();
        try (CuratorFramework observer = CuratorFrameworkFactory.newClient(zookeeper.connectString(), new RetryOneTime(100))) {
            observer.start();
            long oldSession = runAndKill(logDir, port, observer, SHORT_SESSION_TIMEOUT_MS);
            Files.delete(logDir.resolve(PreviousSession.FILE_NAME)); // as with a log directory from before the record

            long restarted = System.nanoTime();
            Process second = start(logDir, port, SHORT_SESSION_TIMEOUT_MS);
            try {
                ChildOutput.Ready ready = ChildOutput.awaitLine(second, READY, Duration.ofSeconds(60));
                long readyMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restarted);
                String startLog = String.join("\n", ready.lines());
                Matcher waited = WAITED.matcher(startLog);
                assertTrue("the restarted broker waited for its old registration: " + startLog, waited.find());
                assertNotEquals(oldSession, observer.checkExists().forPath(ClusterPaths.broker(0)).getEphemeralOwner());
                assertEquals(RECORDS, consumeAll(port));
                LOG.info("Restarted after SIGKILL without the recorded session: ready {} ms after the new process started, {} ms "
                    + "of it waiting for the old registration to expire (session timeout {} ms)", readyMs, waited.group(1),
                    SHORT_SESSION_TIMEOUT_MS);
            } finally {
                second.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Starts the broker, writes the records, kills it with SIGKILL; checks that its registration
     * outlives it and returns the session that holds it.
     */
    private long runAndKill(Path logDir, int port, CuratorFramework observer, int sessionTimeoutMs) throws Exception {
        Process first = start(logDir, port, sessionTimeoutMs);
        long session;
        try {
            ChildOutput.awaitLine(first, READY, Duration.ofSeconds(60));
            produce(port);
            session = observer.checkExists().forPath(ClusterPaths.broker(0)).getEphemeralOwner();
        } finally {
            first.destroyForcibly(); // SIGKILL: no shutdown hook, no deregistration, no session close
            assertTrue("the killed broker exited", first.waitFor(30, TimeUnit.SECONDS));
        }
        Stat left = observer.checkExists().forPath(ClusterPaths.broker(0));
        assertNotNull("the killed broker's registration outlives its process", left);
        assertEquals(session, left.getEphemeralOwner());
        return session;
    }

    private Process start(Path logDir, int port, int sessionTimeoutMs) throws Exception {
        return new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
            "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
            "io.millrace.broker.tools.BrokerMain",
            "--override", "broker.id=0",
            "--override", "zookeeper.connect=" + zookeeper.connectString(),
            "--override", "listeners=PLAINTEXT://127.0.0.1:" + port,
            "--override", "zookeeper.session.timeout.ms=" + sessionTimeoutMs,
            "--override", "log.dirs=" + logDir))
            .redirectErrorStream(true).start();
    }

    private static void produce(int port) throws Exception {
        Map<String, Object> props = Map.of("bootstrap.servers", "127.0.0.1:" + port);
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1), new NewTopic(SMALL, 1, (short) 1)
                .configs(Map.of("segment.bytes", Integer.toString(SMALL_SEGMENT_BYTES))))).all().get(30, TimeUnit.SECONDS);
        }
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < RECORDS; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, null, "record-" + i)).get(30, TimeUnit.SECONDS);
            }
        }
    }

    /**
     * Every segment of the log within the topic's {@code segment.bytes}: records that came in while
     * the restarted broker waited for its old registration were kept by the topic's settings, not
     * the broker's defaults (1 GiB segments).
     */
    private static void assertSegmentsWithin(Path partitionDir, int segmentBytes) throws Exception {
        try (java.util.stream.Stream<Path> files = Files.list(partitionDir)) {
            List<Path> segments = files.filter(f -> f.toString().endsWith(".log")).toList();
            assertTrue("segments in " + partitionDir, segments.size() > 1);
            for (Path segment : segments) {
                assertTrue(segment + " is " + Files.size(segment) + " bytes",
                    Files.size(segment) <= segmentBytes);
            }
        }
    }

    /** Writes 100-byte records to the small-segment topic one at a time, from the restart on. */
    private static final class SmallSegmentWriter extends Thread {
        private final int port;
        private final java.util.concurrent.atomic.AtomicInteger acknowledged = new java.util.concurrent.atomic.AtomicInteger();
        private volatile boolean running = true;

        SmallSegmentWriter(int port) {
            super("small-segment-writer");
            this.port = port;
            setDaemon(true);
        }

        @Override
        public void run() {
            Map<String, Object> props = Map.of("bootstrap.servers", "127.0.0.1:" + port, "linger.ms", "0",
                "reconnect.backoff.max.ms", "200", "retry.backoff.ms", "50");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(),
                new StringSerializer())) {
                while (running) {
                    producer.send(new ProducerRecord<>(SMALL, 0, null, "x".repeat(100))).get(60, TimeUnit.SECONDS);
                    acknowledged.incrementAndGet();
                }
            } catch (Exception e) {
                if (running) {
                    LOG.warn("The small-segment writer stopped", e);
                }
            }
        }

        int acknowledged() {
            return acknowledged.get();
        }

        void finishAfter(Duration more) throws InterruptedException {
            Thread.sleep(more.toMillis());
            running = false;
            join(30_000);
        }
    }

    private static int consumeAll(int port) {
        Map<String, Object> props = Map.of("bootstrap.servers", "127.0.0.1:" + port, "enable.auto.commit", "false");
        TopicPartition partition = new TopicPartition(TOPIC, 0);
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (values.size() < RECORDS && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
        }
        return values.size();
    }
}
