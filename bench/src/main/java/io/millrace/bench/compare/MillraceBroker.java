package io.millrace.bench.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** A Millrace ZooKeeper and broker in their own JVM: {@link MillraceServerMain}. */
public final class MillraceBroker extends BrokerProcess {

    private int port = -1;
    /** The READY lines in the process log before the last {@link #relaunch()}. */
    private long readyLinesBefore;
    private String zookeeperConnect;
    /** Broker settings beyond the defaults, set before {@link #start()}. */
    private final java.util.List<String> overrides = new java.util.ArrayList<>();

    public MillraceBroker(Path parent, Path processLog, String heap) throws IOException {
        super("millrace", parent, processLog, heap);
    }

    /** A broker setting of its own, e.g. the group coordinator's initial rebalance delay; before {@link #start()}. */
    public MillraceBroker set(String key, String value) {
        overrides.add(key + "=" + value);
        return this;
    }

    @Override
    public void start() throws Exception {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(home.toString()));
        args.addAll(overrides);
        process = builder(javaCommand(MillraceServerMain.class.getName(), args.toArray(String[]::new))).start();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (port < 0) {
            checkAlive();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Millrace broker not ready after " + START_TIMEOUT + "; see " + processLog);
            }
            if (Files.exists(processLog)) {
                for (String line : Files.readAllLines(processLog)) {
                    if (line.startsWith("ZOOKEEPER ")) {
                        zookeeperConnect = line.substring("ZOOKEEPER ".length()).trim();
                    } else if (line.startsWith("READY ")) {
                        port = Integer.parseInt(line.substring("READY ".length()).trim());
                    }
                }
            }
            Thread.sleep(100);
        }
    }

    /**
     * The same broker on the same data, listening on the port it had (its ZooKeeper, in the same JVM,
     * on a new one); {@link #zookeeperConnect()} is unknown until the new JVM says it.
     */
    @Override
    public void relaunch() throws IOException {
        checkNotRunning();
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(home.toString()));
        args.addAll(overrides);
        args.add(io.millrace.broker.network.NetworkConfig.LISTENERS_CONFIG + "=PLAINTEXT://127.0.0.1:" + port);
        zookeeperConnect = null;
        readyLinesBefore = readyLines();
        process = builder(javaCommand(MillraceServerMain.class.getName(), args.toArray(String[]::new))).start();
    }

    /**
     * Millrace's broker answers clients from the logs it loaded before it is registered in ZooKeeper
     * (after a crash it waits there for its previous registration's session to expire); {@link
     * MillraceServerMain} prints READY only once {@code Broker.startup()} has returned, registered.
     */
    @Override
    public void awaitRejoined(java.time.Duration timeout) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (readyLines() <= readyLinesBefore) {
            checkAlive();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Millrace broker not registered " + timeout + " after its relaunch; see "
                    + processLog);
            }
            Thread.sleep(20);
        }
    }

    private long readyLines() throws IOException {
        if (!Files.exists(processLog)) {
            return 0;
        }
        try (java.util.stream.Stream<String> lines = Files.lines(processLog)) {
            return lines.filter(l -> l.startsWith("READY ")).count();
        }
    }

    @Override
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** The broker's ZooKeeper, host:port, once {@link #start()} has returned. */
    String zookeeperConnect() {
        return zookeeperConnect;
    }

    @Override
    Path logDir() {
        return home.resolve("logs");
    }

    @Override
    public synchronized void close() {
        if (process != null && process.isAlive()) {
            try {
                process.getOutputStream().close(); // end of input: the server stops cleanly and exits
                process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (IOException | InterruptedException e) {
                // close() below signals it
            }
        }
        super.close();
    }
}
