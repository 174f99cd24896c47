package io.millrace.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Watcher.Event.KeeperState;
import org.apache.zookeeper.ZooKeeper;
import org.junit.rules.ExternalResource;

/**
 * A ZooKeeper server for tests: Curator's {@link TestingServer} on a free loopback port, with a
 * short tick so sessions may be as short as {@value #TICK_TIME_MS} ms (and as long as a
 * minute). Use it as a JUnit {@code @Rule}/{@code @ClassRule}, or start and close it by hand.
 * {@link #stop()} and {@link #restart()} keep the port and the data, as a real restart does, so
 * sessions may survive a short outage and expire after a long one; {@link #expireSession} expires
 * one session on the server, the way a real expiry happens.
 */
public final class EmbeddedZooKeeper extends ExternalResource implements AutoCloseable {

    public static final int TICK_TIME_MS = 100;
    public static final int MAX_SESSION_TIMEOUT_MS = 60_000;

    private final TestingServer server;

    public EmbeddedZooKeeper() {
        try {
            InstanceSpec spec = new InstanceSpec(TestDirs.create("zookeeper").toFile(), FreePorts.loopback(), -1, -1, true, -1,
                TICK_TIME_MS, -1, Map.of("clientPortAddress", "127.0.0.1", "maxSessionTimeout", String.valueOf(MAX_SESSION_TIMEOUT_MS)),
                "127.0.0.1");
            this.server = new TestingServer(spec, false);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot set up an embedded ZooKeeper", e);
        }
    }

    public EmbeddedZooKeeper start() throws Exception {
        server.start();
        return this;
    }

    public String connectString() {
        return server.getConnectString();
    }

    public int port() {
        return server.getPort();
    }

    /** Stops serving, as a crash of the server would; sessions stay in its data. */
    public void stop() throws IOException {
        server.stop();
    }

    /** Starts again on the same port with the same data. */
    public void restart() throws Exception {
        server.restart();
    }

    /**
     * Expires {@code client}'s session on the server: a second connection joins the session and
     * closes it, so ZooKeeper deletes the session's ephemeral znodes and tells the client its
     * session expired, exactly as after a long partition. (Curator's {@code KillSession} instead
     * fakes the expiry in the client only.)
     */
    public void expireSession(ZooKeeper client) throws Exception {
        CountDownLatch connected = new CountDownLatch(1);
        ZooKeeper twin = new ZooKeeper(connectString(), 10_000, event -> {
            if (event.getState() == KeeperState.SyncConnected) {
                connected.countDown();
            }
        }, client.getSessionId(), client.getSessionPasswd());
        try {
            if (!connected.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Could not join session 0x" + Long.toHexString(client.getSessionId()));
            }
        } finally {
            twin.close();
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
    }

    @Override
    protected void before() throws Throwable {
        start();
    }

    @Override
    protected void after() {
        try {
            close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
