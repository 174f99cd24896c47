package io.millrace.common.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.millrace.common.config.ConfigException;
import io.millrace.common.errors.NetworkException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Where a client first finds the cluster: the {@code host:port} list of {@code bootstrap.servers},
 * or, as in the paper, the broker registry in ZooKeeper ({@code /millrace/brokers/ids}, under the
 * chroot of {@code zookeeper.connect} if it has one). Either way the client then asks one of them
 * for Metadata and learns the rest.
 */
public final class BootstrapServers {

    /** Where brokers register, relative to the chroot; the broker's ClusterPaths owns the same path. */
    public static final String BROKER_IDS_PATH = "/millrace/brokers/ids";

    private static final ObjectMapper JSON = new ObjectMapper();

    private BootstrapServers() {
    }

    /** Parses {@code host1:port1,host2:port2}; IPv6 hosts in brackets. Throws {@link ConfigException} on bad input. */
    public static List<InetSocketAddress> parse(String servers) {
        List<InetSocketAddress> addresses = new ArrayList<>();
        for (String entry : servers == null ? new String[0] : servers.split(",")) {
            String trimmed = entry.trim();
            if (!trimmed.isEmpty()) {
                addresses.add(address(trimmed));
            }
        }
        if (addresses.isEmpty()) {
            throw new ConfigException("No bootstrap server given: expected host:port[,host:port...], got '" + servers + "'");
        }
        return List.copyOf(addresses);
    }

    private static InetSocketAddress address(String entry) {
        int colon = entry.lastIndexOf(':');
        if (colon <= 0 || colon == entry.length() - 1) {
            throw new ConfigException("Invalid bootstrap server '" + entry + "': expected host:port");
        }
        String host = entry.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        try {
            int port = Integer.parseInt(entry.substring(colon + 1));
            if (port < 1 || port > 65_535) {
                throw new ConfigException("Invalid port in bootstrap server '" + entry + "'");
            }
            return InetSocketAddress.createUnresolved(host, port);
        } catch (NumberFormatException e) {
            throw new ConfigException("Invalid port in bootstrap server '" + entry + "'");
        }
    }

    /**
     * The brokers registered in ZooKeeper right now. Throws {@link NetworkException} when ZooKeeper
     * cannot be reached within {@code timeoutMs} or no broker is registered.
     */
    public static List<InetSocketAddress> fromZooKeeper(String zookeeperConnect, int timeoutMs) {
        try (CuratorFramework zk = CuratorFrameworkFactory.builder().connectString(zookeeperConnect)
            .connectionTimeoutMs(timeoutMs).sessionTimeoutMs(Math.max(timeoutMs, 6_000))
            .retryPolicy(new ExponentialBackoffRetry(100, 3)).build()) {
            zk.start();
            if (!zk.blockUntilConnected(timeoutMs, TimeUnit.MILLISECONDS)) {
                throw new NetworkException("Could not reach ZooKeeper at " + zookeeperConnect + " within " + timeoutMs + " ms");
            }
            return registeredBrokers(zk, zookeeperConnect);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NetworkException("Interrupted while reading brokers from ZooKeeper at " + zookeeperConnect, e);
        }
    }

    /** The addresses in {@link #BROKER_IDS_PATH}, read through an already connected client. */
    private static List<InetSocketAddress> registeredBrokers(CuratorFramework zk, String description) {
        List<InetSocketAddress> addresses = new ArrayList<>();
        try {
            if (zk.checkExists().forPath(BROKER_IDS_PATH) != null) {
                for (String id : zk.getChildren().forPath(BROKER_IDS_PATH)) {
                    byte[] data = readQuietly(zk, BROKER_IDS_PATH + "/" + id);
                    if (data != null) {
                        JsonNode broker = JSON.readTree(data);
                        addresses.add(InetSocketAddress.createUnresolved(broker.path("host").asText(), broker.path("port").asInt()));
                    }
                }
            }
        } catch (IOException e) {
            throw new NetworkException("Unreadable broker registration in ZooKeeper at " + description + ": " + e.getMessage(), e);
        } catch (Exception e) {
            throw new NetworkException("Could not read brokers from ZooKeeper at " + description + ": " + e.getMessage(), e);
        }
        if (addresses.isEmpty()) {
            throw new NetworkException("No broker is registered in ZooKeeper at " + description);
        }
        return List.copyOf(addresses);
    }

    /** The node's data, or null if it went away meanwhile (a broker leaving). */
    private static byte[] readQuietly(CuratorFramework zk, String path) throws Exception {
        try {
            return zk.getData().forPath(path);
        } catch (org.apache.zookeeper.KeeperException.NoNodeException e) {
            return null;
        }
    }
}
