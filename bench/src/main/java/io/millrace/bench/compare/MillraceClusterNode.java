package io.millrace.bench.compare;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One broker of a {@link MillraceCluster} in its own JVM: {@link MillraceClusterNodeMain}, joining
 * the given ZooKeeper, or, without one, starting the cluster's ZooKeeper in its own JVM first.
 */
final class MillraceClusterNode extends BrokerProcess {

    private final int brokerId;
    private final String joinZookeeper;
    private String zookeeperConnect;
    private int port = -1;
    /** Where this start's output begins: a process log may be shared by runs, appended to. */
    private long logStart;

    /** A node running the cluster's ZooKeeper when {@code zookeeperConnect} is null. */
    MillraceClusterNode(int brokerId, String zookeeperConnect, Path parent, Path processLog, String heap) throws IOException {
        super("millrace-" + brokerId, parent, processLog, heap);
        this.brokerId = brokerId;
        this.joinZookeeper = zookeeperConnect;
        this.zookeeperConnect = zookeeperConnect;
    }

    /** Starts the JVM; {@link #awaitReady()} waits for its broker. */
    @Override
    void start() throws Exception {
        logStart = Files.exists(processLog) ? Files.size(processLog) : 0;
        List<String> args = new ArrayList<>(List.of(home.toString(), Integer.toString(brokerId)));
        if (joinZookeeper != null) {
            args.add(joinZookeeper);
        }
        process = builder(javaCommand(MillraceClusterNodeMain.class.getName(), args.toArray(String[]::new))).start();
    }

    /** Returns once the broker has registered and listens. */
    void awaitReady() throws Exception {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (port < 0) {
            checkAlive();
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Millrace broker " + brokerId + " not ready after " + START_TIMEOUT + "; see " + processLog);
            }
            readAnnouncements();
            Thread.sleep(100);
        }
    }

    private void readAnnouncements() throws IOException {
        if (!Files.exists(processLog)) {
            return;
        }
        for (String line : linesSinceStart()) {
            if (line.startsWith("ZOOKEEPER ")) {
                zookeeperConnect = line.substring("ZOOKEEPER ".length()).trim();
            } else if (line.startsWith("READY ")) {
                port = Integer.parseInt(line.substring("READY ".length()).trim());
            }
        }
    }

    private List<String> linesSinceStart() throws IOException {
        try (RandomAccessFile file = new RandomAccessFile(processLog.toFile(), "r")) {
            byte[] bytes = new byte[(int) Math.max(0, file.length() - logStart)];
            file.seek(logStart);
            file.readFully(bytes);
            return new String(bytes, StandardCharsets.UTF_8).lines().toList();
        }
    }

    int brokerId() {
        return brokerId;
    }

    /** The cluster's ZooKeeper, host:port; for the node running it, known once it is ready. */
    String zookeeperConnect() {
        return zookeeperConnect;
    }

    @Override
    String bootstrapServers() {
        return LoopbackPorts.HOST + ":" + port;
    }

    @Override
    Path logDir() {
        return home.resolve("logs");
    }

    @Override
    public synchronized void close() {
        if (process != null && process.isAlive()) {
            try {
                process.getOutputStream().close(); // end of input: the node stops cleanly and exits
                process.waitFor(30, TimeUnit.SECONDS);
            } catch (IOException e) {
                // close() below signals it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // close() below signals it
            }
        }
        super.close();
    }
}
