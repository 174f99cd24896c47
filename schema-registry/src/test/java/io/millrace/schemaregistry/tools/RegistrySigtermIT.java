package io.millrace.schemaregistry.tools;

import static org.junit.Assert.assertTrue;

import io.millrace.testkit.ChildOutput;
import io.millrace.testkit.EmbeddedZooKeeper;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.Rule;
import org.junit.Test;

/**
 * The registry as an operator runs it, in a process of its own: serving, then its ZooKeeper stopped,
 * then SIGTERM. The process ends by itself within the bound (5 s per thread pool to drain, a ZooKeeper
 * client that does not wait for an unreachable server).
 */
public class RegistrySigtermIT {

    private static final Pattern READY = Pattern.compile("ready on (http://\\S+?)(,|$)");

    @Rule
    public final EmbeddedZooKeeper zookeeper = new EmbeddedZooKeeper();

    @Test(timeout = 120_000)
    public void sigtermEndsTheRegistryWithinItsBoundWhileZooKeeperIsDown() throws Exception {
        Process registry = new ProcessBuilder(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), SchemaRegistryMain.class.getName(),
            "--override", "zookeeper.connect=" + zookeeper.connectString(),
            "--override", "listeners=http://127.0.0.1:0"))
            .redirectErrorStream(true).start();
        try {
            String url = awaitReady(registry);
            HttpURLConnection subjects = (HttpURLConnection) URI.create(url + "/subjects").toURL().openConnection();
            assertTrue("serving", subjects.getResponseCode() == 200);
            zookeeper.stop();
            long start = System.nanoTime();
            registry.destroy();   // SIGTERM
            assertTrue("the registry did not stop within 60 s", registry.waitFor(60, TimeUnit.SECONDS));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue("SIGTERM to exit took " + tookMs + " ms with ZooKeeper down", tookMs < 12_000);
        } finally {
            registry.destroyForcibly();
        }
    }

    private static String awaitReady(Process registry) throws Exception {
        return ChildOutput.awaitLine(registry, READY, Duration.ofSeconds(60)).match().group(1);
    }
}
