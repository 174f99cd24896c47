package io.millrace.examples;

import io.millrace.broker.tools.LocalCluster;
import java.io.PrintStream;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * {@code bin/millrace quickstart}: the paper's pipeline in one JVM, in a few seconds. It starts a
 * standalone ZooKeeper and a broker ({@link LocalCluster}), creates the topic {@value #TOPIC} with
 * {@value #PARTITIONS} partitions, produces page views with Millrace's producer
 * ({@link PageViewProducer}: keyed by user id, one producer per compression codec), reads them back
 * in a consumer group coordinated through ZooKeeper ({@link GroupReader}), shows the group's
 * committed offsets and lag, and shuts everything down. Every byte between clients and broker goes
 * over the Kafka wire protocol.
 *
 * <p>With {@code --keep-running} the broker stays up afterwards, for Millrace's and Kafka's tools,
 * until Ctrl-C or SIGTERM.
 */
public final class QuickstartDemo {

    public static final String TOPIC = "page-views";
    public static final int PARTITIONS = 3;
    static final int EVENTS_PER_CODEC = 5;
    static final String USAGE = "Usage: millrace quickstart [--keep-running]";

    /** One event as produced or as read back; the header is the content-type value. */
    public record Event(int partition, long offset, long timestamp, String key, String value, String contentType) {
    }

    /** The events produced and the events the group read back, both in partition and offset order. */
    public record Result(List<Event> produced, List<Event> consumed) {

        public boolean allReadBack() {
            return produced.equals(consumed);
        }
    }

    private QuickstartDemo() {
    }

    public static void main(String[] args) throws Exception {
        int exitCode = run(args, System.out, System.err);
        if (exitCode != 0) {
            System.exit(exitCode);
        }
    }

    /** What main does, but returning the exit code: 0 when every event was read back, 1 if not, 2 for bad usage. */
    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        boolean keepRunning = false;
        for (String arg : args) {
            switch (arg) {
                case "--keep-running" -> keepRunning = true;
                case "-h", "--help" -> {
                    out.println(USAGE);
                    return 0;
                }
                default -> {
                    err.println("millrace quickstart: unknown option " + arg + "\n" + USAGE);
                    return 2;
                }
            }
        }
        LocalCluster cluster = LocalCluster.start();
        Result result;
        try {
            result = run(cluster, out);
        } catch (Exception e) {
            cluster.close();
            throw e;
        }
        if (keepRunning && result.allReadBack()) {
            report(result, out);
            keepRunning(cluster, out);
            return 0;
        }
        stop(cluster, out);
        return report(result, out);
    }

    /** Starts a cluster, runs the demo against it, stops it. */
    public static Result run(PrintStream out) throws Exception {
        try (LocalCluster cluster = LocalCluster.start()) {
            return run(cluster, out);
        }
    }

    /** Creates the topic, produces, reads back in group {@value GroupReader#GROUP}; the cluster stays up. */
    static Result run(LocalCluster cluster, PrintStream out) throws InterruptedException {
        out.printf("ZooKeeper on %s, broker 0 on %s (logs in %s)%n", cluster.zookeeperConnect(),
            cluster.bootstrapServers(), cluster.logDir());
        cluster.createTopic(TOPIC, PARTITIONS);
        out.printf("Created topic %s with %d partitions%n", TOPIC, PARTITIONS);
        out.printf("Page views: key = user id, value = JSON, header content-type. As Kafka's does, the producer puts"
            + "%n  a key in partition murmur2(key) %% %d: each user's views land in one partition, in order%n", PARTITIONS);
        List<Event> produced = new PageViewProducer(cluster.bootstrapServers(), out)
            .produceWithEveryCodec(EVENTS_PER_CODEC).stream()
            .sorted(Comparator.comparingInt(Event::partition).thenComparingLong(Event::offset)).toList();
        List<Event> consumed = new GroupReader(cluster.zookeeperConnect(), out).readAll(produced);
        return new Result(produced, consumed);
    }

    private static void stop(LocalCluster cluster, PrintStream out) {
        cluster.close();
        out.println("Stopped the broker and ZooKeeper; deleted their data.");
    }

    private static void keepRunning(LocalCluster cluster, PrintStream out) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop(cluster, out);
            stopped.countDown();
        }, "quickstart-shutdown"));
        out.printf("Broker up: bootstrap.servers=%s (ZooKeeper %s). Ctrl-C to stop.%n",
            cluster.bootstrapServers(), cluster.zookeeperConnect());
        out.printf("  e.g. bin/millrace consumer-groups --zookeeper %s --describe --group %s%n",
            cluster.zookeeperConnect(), GroupReader.GROUP);
        stopped.await();
    }

    /** The last line of the demo's output; returns the exit code. */
    private static int report(Result result, PrintStream out) {
        if (!result.allReadBack()) {
            out.printf("FAILED: produced %d, consumed %d, and they differ%n", result.produced().size(),
                result.consumed().size());
            return 1;
        }
        out.printf("OK: produced %d, consumed %d%n", result.produced().size(), result.consumed().size());
        return 0;
    }
}
