package io.millrace.distribution;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.FreePorts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.rules.ExternalResource;
import org.junit.rules.TemporaryFolder;

/**
 * millrace-VERSION.tgz unpacked into a temporary directory, and the processes started from it. No
 * Maven may run: a {@code mvn} first on the PATH fails and leaves a mark ({@link #mavenWasCalled}).
 * Every process still running when the test ends is killed.
 */
final class Release extends ExternalResource {

    private final TemporaryFolder temp;
    private final List<Process> started = new ArrayList<>();
    private Path home;
    private Path fakeBin;
    private Path mavenCalled;

    Release(TemporaryFolder temp) {
        this.temp = temp;
    }

    @Override
    protected void before() throws Throwable {
        Path tarball;
        try (Stream<Path> files = Files.list(Path.of("target"))) {
            tarball = files.filter(p -> p.getFileName().toString().matches("millrace-.*\\.tgz")).findFirst()
                .orElseThrow(() -> new AssertionError("no millrace-*.tgz in target/: run the package phase first"));
        }
        Path into = temp.newFolder("release").toPath();
        Process tar = new ProcessBuilder("tar", "xzf", tarball.toAbsolutePath().toString(), "-C", into.toString())
            .inheritIO().start();
        assertEquals(0, tar.waitFor());
        try (Stream<Path> dirs = Files.list(into)) {
            home = dirs.findFirst().orElseThrow();
        }
        fakeBin = temp.newFolder("fake-bin").toPath();
        mavenCalled = temp.getRoot().toPath().resolve("maven-was-called");
        Path mvn = fakeBin.resolve("mvn");
        Files.writeString(mvn, "#!/bin/sh\ntouch '" + mavenCalled + "'\nexit 97\n");
        assertTrue(mvn.toFile().setExecutable(true));
    }

    @Override
    protected void after() {
        started.forEach(Process::destroyForcibly);
    }

    Path home() {
        return home;
    }

    boolean mavenWasCalled() {
        return Files.exists(mavenCalled);
    }

    private ProcessBuilder command(Map<String, String> env, String... args) {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/millrace").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile());
        builder.environment().put("PATH", fakeBin + ":" + System.getenv("PATH"));
        builder.environment().remove("CLASSPATH");
        builder.environment().remove("HADOOP_CONF_DIR");
        builder.environment().remove("HADOOP_CLASSPATH");
        builder.environment().put("MILLRACE_OPTS", "-Xmx256m");
        builder.environment().putAll(env);
        return builder;
    }

    /** Starts a long-running command (a server), its output in {@code <logName>} beside the release. */
    Process start(String logName, String... args) throws IOException {
        Path log = temp.getRoot().toPath().resolve(logName);
        Process process = command(Map.of(), args).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        started.add(process);
        return process;
    }

    record Run(int exit, String out, String err) {
    }

    Run run(String stdin, String... args) throws Exception {
        return run(Map.of(), stdin, 120, args);
    }

    Run run(Map<String, String> env, String stdin, int timeoutSeconds, String... args) throws Exception {
        Path out = temp.newFile().toPath();
        Path err = temp.newFile().toPath();
        Process process = command(env, args).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        started.add(process);
        if (stdin != null) {
            process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        process.getOutputStream().close();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            throw new AssertionError(String.join(" ", args) + " did not finish in " + timeoutSeconds + " s: "
                + Files.readString(err));
        }
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    void awaitPort(int port, Process process, String logName) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new AssertionError(logName + ": exited with " + process.exitValue() + ": " + log(logName));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 500);
                return;
            } catch (IOException notYet) {
                Thread.sleep(200);
            }
        }
        throw new AssertionError(logName + ": nothing listens on " + port + " after 60 s: " + log(logName));
    }

    /** SIGTERM, as an operator's service manager sends it: the process must end by itself. */
    void stop(Process process, String logName) throws Exception {
        process.destroy();
        assertTrue(logName + " stops on SIGTERM: " + log(logName), process.waitFor(30, TimeUnit.SECONDS));
    }

    String log(String logName) throws IOException {
        return Files.readString(temp.getRoot().toPath().resolve(logName));
    }

    /** ZooKeeper, a broker and a schema registry started from the release; their addresses. */
    Servers startServers() throws Exception {
        int zkPort = FreePorts.loopback();
        Process zookeeper = start("zookeeper.log", "zookeeper", "--port", String.valueOf(zkPort),
            "--data-dir", temp.newFolder("zk").toString());
        awaitPort(zkPort, zookeeper, "zookeeper.log");
        int brokerPort = FreePorts.loopback();
        Process broker = start("broker.log", "broker", "--config", "config/broker.properties",
            "--override", "zookeeper.connect=127.0.0.1:" + zkPort,
            "--override", "listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
            "--override", "log.dirs=" + temp.newFolder("logs"));
        awaitPort(brokerPort, broker, "broker.log");
        int registryPort = FreePorts.loopback();
        Process registry = start("registry.log", "schema-registry", "--override", "zookeeper.connect=127.0.0.1:" + zkPort,
            "--override", "listeners=http://127.0.0.1:" + registryPort);
        awaitPort(registryPort, registry, "registry.log");
        return new Servers(zookeeper, broker, registry, "127.0.0.1:" + brokerPort, "http://127.0.0.1:" + registryPort);
    }

    record Servers(Process zookeeper, Process broker, Process registry, String bootstrap, String registryUrl) {
    }
}
