package io.millrace.broker.cluster;

import org.apache.curator.RetryPolicy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;

/** The broker's Curator client, configured from its cluster settings. */
final class CuratorClients {

    private CuratorClients() {
    }

    /**
     * A Curator client for {@code zookeeper.connect}. A chroot suffix becomes Curator's
     * namespace rather than ZooKeeper's chroot, because Curator creates a missing namespace
     * node and ZooKeeper does not create a missing chroot.
     */
    static CuratorFramework forCluster(ClusterConfig config) {
        String connect = config.zookeeperConnect();
        int slash = connect.indexOf('/');
        String hosts = slash < 0 ? connect : connect.substring(0, slash);
        String chroot = slash < 0 ? "" : connect.substring(slash).replaceAll("^/+|/+$", "");
        return CuratorFrameworkFactory.builder()
            .connectString(hosts)
            .namespace(chroot.isEmpty() ? null : chroot)
            .sessionTimeoutMs(config.sessionTimeoutMs())
            .connectionTimeoutMs(config.connectionTimeoutMs())
            .retryPolicy(retryPolicy(config.retryBackoffMs()))
            .defaultData(new byte[0]) // Curator's default is this host's IP address
            .build();
    }

    /**
     * Exponential backoff from {@code backoffMs} up to ten times that, with as many retries as
     * Curator allows (29) short of the point where its randomised sleep overflows an int.
     */
    static RetryPolicy retryPolicy(int backoffMs) {
        int retries = 0;
        while (retries < 29 && (long) backoffMs << (retries + 2) <= Integer.MAX_VALUE) {
            retries++;
        }
        return new BoundedExponentialBackoffRetry(backoffMs, 10 * backoffMs, retries);
    }
}
