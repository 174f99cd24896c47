package io.millrace.audit.kafka;

import io.millrace.testkit.FreePorts;
import java.io.File;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.Uuid;

/**
 * One Apache Kafka node (KRaft: broker and controller in one), in a JVM of its own started from the
 * test's classpath, so that the interceptors are proven against Kafka's own group coordinator too (Millrace's
 * coordinator is tested in the broker module with the same clients). Group joins are not delayed, and the internal topics have one replica and one partition,
 * so that a test's group is ready in a second. Its data and log live under the given directory.
 */
final class KafkaNode implements AutoCloseable {

    private static final long START_TIMEOUT_MS = 120_000;

    private final Path home;
    private final int port;
    private Process process;

    private KafkaNode(Path home, int port) {
        this.home = home;
        this.port = port;
    }

    static KafkaNode start(Path home) throws Exception {
        KafkaNode node = new KafkaNode(home, FreePorts.loopback());
        try {
            node.launch(FreePorts.loopback());
            node.awaitReady();
            return node;
        } catch (Exception | Error e) {
            node.close();
            throw e;
        }
    }

    String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    private void launch(int controllerPort) throws Exception {
        Path config = writeConfig(controllerPort);
        Process format = java("kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(), "-c",
            config.toString()).start();
        if (!format.waitFor(60, TimeUnit.SECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new IllegalStateException("Formatting Kafka's storage failed; see " + home.resolve("kafka.out"));
        }
        process = java("kafka.Kafka", config.toString()).start();
    }

    private Path writeConfig(int controllerPort) throws IOException {
        Properties props = new Properties();
        props.setProperty("node.id", "1");
        props.setProperty("process.roles", "broker,controller");
        props.setProperty("controller.quorum.voters", "1@127.0.0.1:" + controllerPort);
        props.setProperty("controller.listener.names", "CONTROLLER");
        props.setProperty("listeners", "PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort);
        props.setProperty("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.setProperty("log.dirs", home.resolve("data").toString());
        props.setProperty("group.initial.rebalance.delay.ms", "0");
        for (String topic : List.of("offsets.topic", "transaction.state.log", "share.coordinator.state.topic")) {
            props.setProperty(topic + ".replication.factor", "1");
            props.setProperty(topic + ".num.partitions", "1");
        }
        props.setProperty("transaction.state.log.min.isr", "1");
        props.setProperty("share.coordinator.state.topic.min.isr", "1");
        Path file = home.resolve("server.properties");
        try (Writer out = Files.newBufferedWriter(file)) {
            props.store(out, null);
        }
        return file;
    }

    private ProcessBuilder java(String mainClass, String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx512m", "-cp", classPath(), mainClass));
        command.addAll(List.of(args));
        return new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(home.resolve("kafka.out").toFile()));
    }

    /** Surefire hands the test JVM a one-jar class path; the real one is in this property. */
    private static String classPath() {
        String path = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> absolute = new ArrayList<>();
        for (String entry : path.split(File.pathSeparator)) {
            if (!entry.isEmpty()) {
                absolute.add(Path.of(entry).toAbsolutePath().toString());
            }
        }
        return String.join(File.pathSeparator, absolute);
    }

    private void awaitReady() throws Exception {
        long deadline = System.currentTimeMillis() + START_TIMEOUT_MS;
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers(), "request.timeout.ms", 2_000,
                "default.api.timeout.ms", 4_000))) {
            while (true) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("Kafka exited with " + process.exitValue() + "; see "
                        + home.resolve("kafka.out"));
                }
                try {
                    if (!admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty()) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException notYet) {
                    if (System.currentTimeMillis() > deadline) {
                        throw new IllegalStateException("Kafka not ready in " + START_TIMEOUT_MS + " ms; see "
                            + home.resolve("kafka.out"));
                    }
                }
                Thread.sleep(200);
            }
        }
    }

    /** Stops the node (a clean shutdown, forced after 30 s). */
    @Override
    public void close() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
