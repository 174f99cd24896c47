package io.millrace.bench.compare;

import io.millrace.testkit.FreePorts;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * An Apache Kafka broker ({@code kafka.Kafka}, from {@code org.apache.kafka:kafka_2.13}) in its own
 * JVM: one node in KRaft combined mode (broker and controller), a static one-voter quorum, both
 * listeners on free loopback ports, storage formatted first with {@code kafka.tools.StorageTool}.
 * Kafka's defaults otherwise, except the internal topics' replication factors (1: there is one
 * node), which no scenario uses, and what {@link #set} names.
 */
public final class KafkaBroker extends BrokerProcess {

    private int port;
    /** Broker settings beyond the defaults, set before {@link #start()}. */
    private final Map<String, String> overrides = new java.util.LinkedHashMap<>();

    public KafkaBroker(Path parent, Path processLog, String heap) throws IOException {
        super("kafka", parent, processLog, heap);
    }

    /** A broker setting of its own, e.g. the group coordinator's initial rebalance delay; before {@link #start()}. */
    public KafkaBroker set(String key, String value) {
        overrides.put(key, value);
        return this;
    }

    @Override
    public void start() throws Exception {
        port = FreePorts.loopback();
        int controllerPort = FreePorts.loopback();
        Properties props = new Properties();
        props.setProperty("process.roles", "broker,controller");
        props.setProperty("node.id", "1");
        props.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        props.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        props.setProperty("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
        props.setProperty("controller.listener.names", "CONTROLLER");
        props.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.setProperty("log.dirs", logDir().toString());
        props.setProperty("offsets.topic.replication.factor", "1");
        props.setProperty("transaction.state.log.replication.factor", "1");
        props.setProperty("transaction.state.log.min.isr", "1");
        props.setProperty("share.coordinator.state.topic.replication.factor", "1");
        props.setProperty("share.coordinator.state.topic.min.isr", "1");
        overrides.forEach(props::setProperty);
        Path config = home.resolve("server.properties");
        try (Writer out = Files.newBufferedWriter(config)) {
            props.store(out, "Apache Kafka broker of the Millrace broker comparison");
        }
        Process format = builder(javaCommand("kafka.tools.StorageTool", "format",
            "-t", Uuid.randomUuid().toString(), "-c", config.toString())).start();
        if (!format.waitFor(START_TIMEOUT.toSeconds(), TimeUnit.SECONDS) || format.exitValue() != 0) {
            stop(format);
            throw new IllegalStateException("kafka-storage format failed; see " + processLog);
        }
        process = builder(javaCommand("kafka.Kafka", config.toString())).start();
        awaitReady();
    }

    /** The same node on the same configuration, storage and ports; not formatted again. */
    @Override
    public void relaunch() throws IOException {
        checkNotRunning();
        process = builder(javaCommand("kafka.Kafka", home.resolve("server.properties").toString())).start();
    }

    /**
     * A restarted Kafka node opens its client listener only once its controller has registered it and
     * let it out of fencing, so listening is rejoining.
     */
    @Override
    public void awaitRejoined(java.time.Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!LoopbackPorts.accepts(port)) {
            checkAlive();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Kafka broker not listening " + timeout + " after its relaunch; see " + processLog);
            }
            Thread.sleep(5);
        }
    }

    private void awaitReady() throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        // first the listener, so the admin client does not log a warning per refused connection
        while (!LoopbackPorts.accepts(port)) {
            checkAlive();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Kafka broker not listening after " + START_TIMEOUT + "; see " + processLog);
            }
            Thread.sleep(200);
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 4_000))) {
            while (true) {
                checkAlive();
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    // not up yet
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Kafka broker not ready after " + START_TIMEOUT + "; see " + processLog);
                }
                Thread.sleep(200);
            }
        }
    }

    @Override
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    @Override
    Path logDir() {
        return home.resolve("logs");
    }
}
