package io.millrace.bench.compare;

import io.millrace.broker.cluster.ClusterConfig;
import io.millrace.broker.cluster.StandaloneZooKeeper;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.network.NetworkConfig;
import io.millrace.broker.server.Broker;
import io.millrace.broker.server.BrokerConfig;
import io.millrace.common.utils.Time;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * The Millrace side of the comparison, run in its own JVM by {@link MillraceBroker}: a standalone
 * ZooKeeper and broker 0 on free loopback ports, data under the directory given as the first
 * argument, the broker's defaults but for the {@code setting=value} arguments after it. Prints {@code ZOOKEEPER <host:port>} and then
 * {@code READY <port>} once the broker answers, then runs until its standard input closes (the
 * harness exits or closes it) or SIGTERM, and then stops the broker before ZooKeeper.
 *
 * <p>ZooKeeper shares the broker's JVM and heap, as Kafka's KRaft controller shares the Kafka
 * broker's in combined mode.
 */
public final class MillraceServerMain {

    private MillraceServerMain() {
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (Throwable t) {
            // ZooKeeper installs a default handler that logs uncaught exceptions, and logging is off
            t.printStackTrace();
            System.exit(1);
        }
    }

    private static void run(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("Usage: MillraceServerMain <data-dir> [<broker-setting>=<value> ...]");
            System.exit(2);
        }
        Path home = Path.of(args[0]);
        StandaloneZooKeeper zookeeper = new StandaloneZooKeeper("127.0.0.1", 0, home.resolve("zookeeper"));
        zookeeper.start();
        Map<String, Object> props = new HashMap<>();
        props.put(ClusterConfig.BROKER_ID_CONFIG, 0);
        props.put(ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, zookeeper.connectString());
        props.put(NetworkConfig.LISTENERS_CONFIG, "PLAINTEXT://127.0.0.1:0");
        props.put(LogConfig.LOG_DIRS_CONFIG, home.resolve("logs").toString());
        for (int i = 1; i < args.length; i++) {
            int eq = args[i].indexOf('=');
            props.put(args[i].substring(0, eq), args[i].substring(eq + 1));
        }
        Broker broker = new Broker(new BrokerConfig(props), Time.SYSTEM);
        Object lock = new Object();
        boolean[] stopped = {false};
        Runnable stop = () -> {
            synchronized (lock) {
                if (stopped[0]) {
                    return;
                }
                stopped[0] = true;
            }
            broker.shutdown();
            zookeeper.close();
        };
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "millrace-bench-shutdown"));
        broker.startup();
        // ZooKeeper for what shares the broker's cluster, such as the load comparison's schema registry
        System.out.println("ZOOKEEPER " + zookeeper.connectString());
        System.out.println("READY " + broker.boundPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait for end of input
        }
        stop.run();
        System.exit(0);
    }
}
