package io.millrace.distribution;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.After;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The release as a user gets it: millrace-VERSION.tgz unpacked into an empty directory, no sources and
 * no Maven (a {@code mvn} first on the PATH fails and leaves a mark if anything calls it). From it:
 * ZooKeeper, a broker and a schema registry start, a topic is created, Kafka-style console tools send
 * and read records, and SIGTERM stops each.
 */
public class ReleaseTarballIT {

    @Rule
    public TemporaryFolder temp = new TemporaryFolder();

    private final List<Process> started = new ArrayList<>();
    private Path home;
    private Path mavenCalled;
    private Path fakeBin;

    @After
    public void stopAll() {
        started.forEach(Process::destroyForcibly);
    }

    @Test
    public void theUnpackedReleaseRunsZooKeeperABrokerARegistryAndTheConsoleToolsWithoutMavenOrSources() throws Exception {
        unpack();
        assertTrue("libs/ holds the jars", Files.exists(home.resolve("libs")));
        assertFalse("no sources in a release", Files.exists(home.resolve("pom.xml")));
        assertTrue("licenses of what it bundles", Files.readString(home.resolve("licenses/THIRD-PARTY.txt")).contains("zookeeper"));

        int zkPort = freePort();
        int brokerPort = freePort();
        Process zookeeper = start("zookeeper.log", "zookeeper", "--port", String.valueOf(zkPort),
            "--data-dir", temp.newFolder("zk").toString());
        awaitPort(zkPort, zookeeper, "zookeeper.log");
        Process broker = start("broker.log", "broker", "--config", "config/broker.properties",
            "--override", "zookeeper.connect=127.0.0.1:" + zkPort,
            "--override", "listeners=PLAINTEXT://127.0.0.1:" + brokerPort,
            "--override", "log.dirs=" + temp.newFolder("logs"));
        awaitPort(brokerPort, broker, "broker.log");

        String bootstrap = "127.0.0.1:" + brokerPort;
        assertEquals(0, run(null, "topics", "--bootstrap-server", bootstrap, "--create", "--topic", "release",
            "--partitions", "1").exit);
        assertEquals(0, run("one\ntwo\nthree\n", "console-producer", "--bootstrap-server", bootstrap, "--topic", "release").exit);
        Run consumed = run(null, "console-consumer", "--bootstrap-server", bootstrap, "--topic", "release",
            "--from-beginning", "--max-messages", "3");
        assertEquals(consumed.err, 0, consumed.exit);
        assertEquals(List.of("one", "two", "three"), consumed.out.lines().toList());

        int registryPort = freePort();
        Process registry = start("registry.log", "schema-registry", "--override", "zookeeper.connect=127.0.0.1:" + zkPort,
            "--override", "listeners=http://127.0.0.1:" + registryPort);
        awaitPort(registryPort, registry, "registry.log");
        HttpURLConnection subjects = (HttpURLConnection) URI.create("http://127.0.0.1:" + registryPort + "/subjects")
            .toURL().openConnection();
        assertEquals(200, subjects.getResponseCode());
        assertEquals("[]", new String(subjects.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim());

        stop(registry, "registry.log");
        stop(broker, "broker.log");
        stop(zookeeper, "zookeeper.log");
        assertFalse("nothing ran Maven", Files.exists(mavenCalled));
    }

    private void unpack() throws Exception {
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

    private ProcessBuilder command(String... args) {
        List<String> command = new ArrayList<>(List.of(home.resolve("bin/millrace").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile());
        builder.environment().put("PATH", fakeBin + ":" + System.getenv("PATH"));
        builder.environment().remove("CLASSPATH");
        builder.environment().put("MILLRACE_OPTS", "-Xmx256m");
        return builder;
    }

    private Process start(String logName, String... args) throws IOException {
        Path log = temp.getRoot().toPath().resolve(logName);
        Process process = command(args).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        started.add(process);
        return process;
    }

    private record Run(int exit, String out, String err) {
    }

    private Run run(String stdin, String... args) throws Exception {
        Path out = temp.newFile().toPath();
        Path err = temp.newFile().toPath();
        Process process = command(args).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        started.add(process);
        if (stdin != null) {
            process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        }
        process.getOutputStream().close();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            throw new AssertionError(String.join(" ", args) + " did not finish: " + Files.readString(err));
        }
        return new Run(process.exitValue(), Files.readString(out), Files.readString(err));
    }

    private void awaitPort(int port, Process process, String logName) throws Exception {
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

    /** SIGTERM, as an operator's service manager sends it: the process ends by itself. */
    private void stop(Process process, String logName) throws Exception {
        process.destroy();
        assertTrue(logName + " stops on SIGTERM: " + log(logName), process.waitFor(30, TimeUnit.SECONDS));
    }

    private String log(String logName) throws IOException {
        return Files.readString(temp.getRoot().toPath().resolve(logName));
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
