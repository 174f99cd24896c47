package io.millrace.broker.replica;

import io.millrace.testkit.FreePorts;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;

/**
 * Brokers {@code 0..n-1}, each a {@code BrokerMain} process of its own as an operator runs it, against
 * one ZooKeeper. Each keeps its port and log directory across {@link #kill} (SIGKILL: no flush, no
 * controlled shutdown, its ZooKeeper session left to expire), {@link #stop} (SIGTERM) and
 * {@link #start}, so that clients find a restarted broker where they last saw it. Each process's
 * output goes to {@code broker-<id>.out} beside the log directories.
 */
final class BrokerProcesses implements AutoCloseable {

    private static final String READY = "ready on port";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

    private final String zookeeperConnect;
    private final Path home;
    private final Map<String, String> overrides;
    private final int[] ports;
    private final Process[] processes;

    BrokerProcesses(int count, String zookeeperConnect, Path home, Map<String, String> overrides) throws IOException {
        this.zookeeperConnect = zookeeperConnect;
        this.home = home;
        this.overrides = Map.copyOf(overrides);
        this.ports = new int[count];
        this.processes = new Process[count];
        for (int id = 0; id < count; id++) {
            ports[id] = FreePorts.loopback();
        }
    }

    void startAll() throws Exception {
        for (int id = 0; id < processes.length; id++) {
            launch(id);
        }
        for (int id = 0; id < processes.length; id++) {
            awaitReady(id);
        }
    }

    /** Starts broker {@code id} and returns once it is registered and answering. */
    void start(int id) throws Exception {
        launch(id);
        awaitReady(id);
    }

    private void launch(int id) throws IOException {
        if (processes[id] != null && processes[id].isAlive()) {
            throw new IllegalStateException("Broker " + id + " is running");
        }
        List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m", "-cp", System.getProperty("java.class.path"), "io.millrace.broker.tools.BrokerMain",
            "--override", "broker.id=" + id,
            "--override", "zookeeper.connect=" + zookeeperConnect,
            "--override", "listeners=PLAINTEXT://127.0.0.1:" + ports[id],
            "--override", "log.dirs=" + logDir(id),
            "--override", "num.network.threads=1",
            "--override", "num.io.threads=2"));
        overrides.forEach((k, v) -> {
            command.add("--override");
            command.add(k + "=" + v);
        });
        Files.createDirectories(home);
        Files.deleteIfExists(output(id));
        processes[id] = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(output(id).toFile())).start();
    }

    private void awaitReady(int id) throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            String out = Files.exists(output(id)) ? Files.readString(output(id), StandardCharsets.UTF_8) : "";
            if (out.contains(READY)) {
                return;
            }
            if (!processes[id].isAlive()) {
                throw new AssertionError("Broker " + id + " exited with " + processes[id].exitValue() + ":\n" + out);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("Broker " + id + " was not ready within " + START_TIMEOUT + "; see " + output(id));
    }

    /** SIGKILL: the process ends at once, with whatever it had not written lost from its page cache only. */
    void kill(int id) throws InterruptedException {
        Process p = processes[id];
        p.destroyForcibly();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            throw new AssertionError("Broker " + id + " survived SIGKILL");
        }
    }

    /** SIGTERM, and waits for the broker's shutdown (controlled shutdown included). */
    void stop(int id) throws InterruptedException {
        Process p = processes[id];
        p.destroy();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("Broker " + id + " did not stop within 60 s of SIGTERM");
        }
    }

    /**
     * SIGSTOP: the process stops where it is until {@link #resume}, its connections and ZooKeeper
     * session open (for less than the session timeout): registered, but neither fetching nor answering.
     */
    void pause(int id) throws Exception {
        signal(id, "STOP");
    }

    /** SIGCONT after {@link #pause}. */
    void resume(int id) throws Exception {
        signal(id, "CONT");
    }

    private void signal(int id, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(processes[id].pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
            throw new AssertionError("kill -" + signal + " of broker " + id + " failed");
        }
    }

    /** What broker {@code id} has printed and logged so far. */
    String outputOf(int id) throws IOException {
        return Files.readString(output(id), StandardCharsets.UTF_8);
    }

    boolean isAlive(int id) {
        return processes[id] != null && processes[id].isAlive();
    }

    Path logDir(int id) {
        return home.resolve("broker-" + id);
    }

    Path output(int id) {
        return home.resolve("broker-" + id + ".out");
    }

    /** Broker {@code id}'s address alone, for a client that must not wait on any other broker. */
    String address(int id) {
        return "127.0.0.1:" + ports[id];
    }

    String bootstrapServers() {
        StringJoiner servers = new StringJoiner(",");
        for (int port : ports) {
            servers.add("127.0.0.1:" + port);
        }
        return servers.toString();
    }

    @Override
    public void close() {
        for (Process p : processes) {
            if (p != null) {
                p.destroyForcibly();
            }
        }
        for (Process p : processes) {
            if (p != null) {
                try {
                    p.waitFor(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
