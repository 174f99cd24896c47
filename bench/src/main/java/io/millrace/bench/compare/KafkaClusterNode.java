package io.millrace.bench.compare;

import io.millrace.testkit.FreePorts;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * One node of a {@link KafkaCluster} ({@code kafka.Kafka} in its own JVM), configured as
 * {@link KafkaBroker} configures its single node: the one controller of the static quorum runs
 * in combined mode (broker and controller), every other node is a broker only. Its storage must be
 * formatted ({@link #format()}) with the cluster's id before it starts.
 */
final class KafkaClusterNode extends BrokerProcess {

    private final int nodeId;
    private final boolean controller;
    private final int port;
    private final Path config;

    /** A node whose quorum is the one controller on {@code controllerPort}, this node when {@code controller}. */
    KafkaClusterNode(int nodeId, boolean controller, int controllerPort, Path parent, Path processLog, String heap) throws IOException {
        super("kafka-" + nodeId, parent, processLog, heap);
        this.nodeId = nodeId;
        this.controller = controller;
        this.port = FreePorts.loopback();
        this.config = home.resolve("server.properties");
        try (Writer out = Files.newBufferedWriter(config)) {
            properties(controllerPort).store(out, "Apache Kafka node " + nodeId + " of the Millrace broker-scaling comparison");
        }
    }

    private Properties properties(int controllerPort) {
        String host = LoopbackPorts.HOST;
        Properties props = new Properties();
        props.setProperty("node.id", Integer.toString(nodeId));
        props.setProperty("controller.quorum.voters", "1@" + host + ":" + controllerPort);
        props.setProperty("controller.listener.names", "CONTROLLER");
        props.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        if (controller) {
            props.setProperty("process.roles", "broker,controller");
            props.setProperty("listeners", "PLAINTEXT://" + host + ":" + port + ",CONTROLLER://" + host + ":" + controllerPort);
        } else {
            props.setProperty("process.roles", "broker");
            props.setProperty("listeners", "PLAINTEXT://" + host + ":" + port);
        }
        props.setProperty("advertised.listeners", "PLAINTEXT://" + host + ":" + port);
        props.setProperty("log.dirs", logDir().toString());
        // internal topics, which no scenario uses, must not wait for more replicas than one
        props.setProperty("offsets.topic.replication.factor", "1");
        props.setProperty("transaction.state.log.replication.factor", "1");
        props.setProperty("transaction.state.log.min.isr", "1");
        props.setProperty("share.coordinator.state.topic.replication.factor", "1");
        props.setProperty("share.coordinator.state.topic.min.isr", "1");
        return props;
    }

    /** Starts formatting the node's storage for the cluster; the process must exit 0 before {@link #start()}. */
    Process format(String clusterId) throws IOException {
        return builder(javaCommand("kafka.tools.StorageTool", "format", "-t", clusterId, "-c", config.toString())).start();
    }

    /** Starts the node; {@link #awaitListening()} waits for its listener. */
    @Override
    void start() throws IOException {
        process = builder(javaCommand("kafka.Kafka", config.toString())).start();
    }

    /** Returns once the node accepts client connections (it may not have joined the cluster yet). */
    void awaitListening() throws InterruptedException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (!LoopbackPorts.accepts(port)) {
            checkAlive();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Kafka node " + nodeId + " not listening after " + START_TIMEOUT + "; see " + processLog);
            }
            Thread.sleep(200);
        }
    }

    @Override
    String bootstrapServers() {
        return LoopbackPorts.HOST + ":" + port;
    }

    @Override
    Path logDir() {
        return home.resolve("logs");
    }
}
