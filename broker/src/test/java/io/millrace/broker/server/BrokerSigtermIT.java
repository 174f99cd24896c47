package io.millrace.broker.server;

import static org.junit.Assert.assertTrue;

import io.millrace.broker.log.LogFileNames;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/**
 * The broker as an operator runs it, in a process of its own: with its ZooKeeper stopped first, a
 * SIGTERM ends the process within the bound (requests drained, logs flushed, at most
 * broker.shutdown.zookeeper.timeout.ms to leave the cluster), with the clean-shutdown marker written.
 */
public class BrokerSigtermIT {

    @Rule
    public final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();

    @Rule
    public final TemporaryFolder temp = new TemporaryFolder();

    @Test(timeout = 120_000)
    public void sigtermEndsTheBrokerWithinItsBoundWhileZooKeeperIsDown() throws Exception {
        Path logDir = temp.newFolder("logs").toPath();
        Process broker = new ProcessBuilder(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), "io.millrace.broker.tools.BrokerMain",
            "--override", "broker.id=0",
            "--override", "zookeeper.connect=" + zookeeper.connectString(),
            "--override", "listeners=PLAINTEXT://127.0.0.1:0",
            "--override", "log.dirs=" + logDir))
            .redirectErrorStream(true).start();
        try {
            awaitReady(broker);
            zookeeper.stop();
            long start = System.nanoTime();
            broker.destroy();   // SIGTERM
            assertTrue("the broker did not stop within 60 s", broker.waitFor(60, TimeUnit.SECONDS));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue("SIGTERM to exit took " + tookMs + " ms with ZooKeeper down", tookMs < 15_000);
            assertTrue("the clean-shutdown marker", Files.exists(logDir.resolve(LogFileNames.CLEAN_SHUTDOWN_MARKER)));
        } finally {
            broker.destroyForcibly();
        }
    }

    private static void awaitReady(Process broker) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(broker.getInputStream(), StandardCharsets.UTF_8));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String line;
        while ((line = out.readLine()) != null && System.nanoTime() < deadline) {
            if (line.contains("ready on port")) {
                Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "broker-output");
                drain.setDaemon(true);
                drain.start();
                return;
            }
        }
        throw new AssertionError("the broker process did not become ready");
    }
}
