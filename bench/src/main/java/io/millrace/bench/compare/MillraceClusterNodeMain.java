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
 * One broker of a multi-broker Millrace cluster, run in its own JVM by {@link MillraceClusterNode}:
 * {@code <data-dir> <broker-id> [<zookeeper-connect>]}. Without a ZooKeeper to join it first starts
 * a standalone one in this JVM (the cluster's first node, as Kafka's first node is also its
 * controller) and prints {@code ZOOKEEPER <host:port>}. Then it starts the broker on a free loopback
 * port with the broker's defaults otherwise, as {@link MillraceServerMain} does, prints
 * {@code READY <port>} and runs until its standard input closes or SIGTERM; it then stops the
 * broker before its ZooKeeper, if it has one.
 */
public final class MillraceClusterNodeMain {

    private MillraceClusterNodeMain() {
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
        if (args.length < 2 || args.length > 3) {
            System.err.println("Usage: MillraceClusterNodeMain <data-dir> <broker-id> [<zookeeper-connect>]");
            System.exit(2);
        }
        Path home = Path.of(args[0]);
        int brokerId = Integer.parseInt(args[1]);
        StandaloneZooKeeper zookeeper = null;
        String zookeeperConnect;
        if (args.length == 3) {
            zookeeperConnect = args[2];
        } else {
            zookeeper = new StandaloneZooKeeper(LoopbackPorts.HOST, 0, home.resolve("zookeeper"));
            zookeeper.start();
            zookeeperConnect = zookeeper.connectString();
            System.out.println("ZOOKEEPER " + zookeeperConnect);
        }
        Broker broker = new Broker(new BrokerConfig(brokerConfig(home, brokerId, zookeeperConnect)), Time.SYSTEM);
        Runnable stop = stopOnce(broker, zookeeper);
        Runtime.getRuntime().addShutdownHook(new Thread(stop, "millrace-node-shutdown"));
        broker.startup();
        System.out.println("READY " + broker.boundPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // wait for end of input
        }
        stop.run();
        System.exit(0);
    }

    private static Map<String, Object> brokerConfig(Path home, int brokerId, String zookeeperConnect) {
        Map<String, Object> props = new HashMap<>();
        props.put(ClusterConfig.BROKER_ID_CONFIG, brokerId);
        props.put(ClusterConfig.ZOOKEEPER_CONNECT_CONFIG, zookeeperConnect);
        props.put(NetworkConfig.LISTENERS_CONFIG, "PLAINTEXT://" + LoopbackPorts.HOST + ":0");
        props.put(LogConfig.LOG_DIRS_CONFIG, home.resolve("logs").toString());
        return props;
    }

    /** Stops the broker, then ZooKeeper; the first call does it, from the main thread or the hook. */
    private static Runnable stopOnce(Broker broker, StandaloneZooKeeper zookeeper) {
        boolean[] stopped = {false};
        return () -> {
            synchronized (stopped) {
                if (stopped[0]) {
                    return;
                }
                stopped[0] = true;
            }
            broker.shutdown();
            if (zookeeper != null) {
                zookeeper.close();
            }
        };
    }
}
