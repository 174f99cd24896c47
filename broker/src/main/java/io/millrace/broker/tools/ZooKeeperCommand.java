package io.millrace.broker.tools;

import io.millrace.broker.cluster.StandaloneZooKeeper;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bin/millrace zookeeper [--port 2181] [--data-dir DIR] [--host 127.0.0.1]}: runs a
 * standalone ZooKeeper server until SIGTERM or Ctrl-C, then stops it cleanly (the shutdown hook
 * closes the server and its data files before the JVM exits).
 */
public final class ZooKeeperCommand {

    private static final String USAGE = "Usage: millrace zookeeper [--port 2181] [--data-dir data/zookeeper] [--host 127.0.0.1]";

    private ZooKeeperCommand() {
    }

    public static void main(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = 2181;
        Path dataDir = Path.of("data", "zookeeper");
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--port" -> port = portNumber(required(args[i], value));
                case "--data-dir" -> dataDir = Path.of(required(args[i], value));
                case "--host" -> host = required(args[i], value);
                case "-h", "--help" -> {
                    System.out.println(USAGE);
                    return;
                }
                default -> fail("Unknown option " + args[i]);
            }
            i++;
        }
        run(new StandaloneZooKeeper(host, port, dataDir));
    }

    private static void run(StandaloneZooKeeper zookeeper) throws Exception {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            zookeeper.close();
            stopped.countDown();
        }, "zookeeper-shutdown"));
        zookeeper.start();
        System.out.println("ZooKeeper ready on " + zookeeper.connectString());
        stopped.await();
    }

    private static String required(String option, String value) {
        if (value == null) {
            fail(option + " needs a value");
        }
        return value;
    }

    private static int portNumber(String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            fail("--port needs a number, not " + value);
            return -1;
        }
    }

    private static void fail(String message) {
        System.err.println("millrace zookeeper: " + message);
        System.err.println(USAGE);
        System.exit(2);
    }
}
