package io.millrace.broker.cluster;

import io.millrace.common.client.ZooKeeperConnect;
import org.apache.curator.RetryPolicy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;

/** The broker's Curator client, configured from its cluster settings. */
final class CuratorClients {

    private CuratorClients() {
    }

    /** A Curator client for {@code zookeeper.connect} (its chroot as the namespace, see {@link ZooKeeperConnect}). */
    static CuratorFramework forCluster(ClusterConfig config) {
        return ZooKeeperConnect.curatorBuilder(config.zookeeperConnect())
            .sessionTimeoutMs(config.sessionTimeoutMs())
            .connectionTimeoutMs(config.connectionTimeoutMs())
            .retryPolicy(retryPolicy(config.retryBackoffMs()))
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
