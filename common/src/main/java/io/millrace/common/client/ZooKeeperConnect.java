package io.millrace.common.client;

import org.apache.curator.framework.CuratorFrameworkFactory;

/**
 * A {@code zookeeper.connect} string, {@code host:port,host:port[/chroot]}, as the start of a
 * Curator client. The chroot suffix becomes Curator's namespace rather than ZooKeeper's chroot,
 * because Curator creates a missing namespace node and ZooKeeper does not create a missing chroot.
 */
public final class ZooKeeperConnect {

    private ZooKeeperConnect() {
    }

    /**
     * A Curator builder for the servers of {@code zookeeperConnect}, namespaced by its chroot (none
     * without one), whose new znodes hold no data unless given some (Curator's default is this
     * host's IP address). Timeouts and the retry policy are the caller's to add.
     */
    public static CuratorFrameworkFactory.Builder curatorBuilder(String zookeeperConnect) {
        int slash = zookeeperConnect.indexOf('/');
        String hosts = slash < 0 ? zookeeperConnect : zookeeperConnect.substring(0, slash);
        String chroot = slash < 0 ? "" : zookeeperConnect.substring(slash).replaceAll("^/+|/+$", "");
        return CuratorFrameworkFactory.builder()
            .connectString(hosts)
            .namespace(chroot.isEmpty() ? null : chroot)
            .defaultData(new byte[0]);
    }
}
