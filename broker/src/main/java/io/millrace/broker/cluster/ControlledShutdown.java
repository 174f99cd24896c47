package io.millrace.broker.cluster;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shutting-down broker's side of a controlled shutdown: it writes the ephemeral request
 * {@code /millrace/admin/controlled-shutdown/<id>} and waits until its metadata shows the
 * controller has marked it done (see {@link LeadershipDuty}). A broker that leads no partition
 * another live in-sync replica could take over (every partition with one replica, or the last
 * broker) has nothing to wait for and returns at once. The request stays until the broker's
 * session ends, so that no election makes it leader again meanwhile.
 */
final class ControlledShutdown {

    private static final Logger log = LoggerFactory.getLogger(ControlledShutdown.class);

    private final CuratorFramework client;
    private final MetadataCache metadata;
    private final int brokerId;

    ControlledShutdown(CuratorFramework client, MetadataCache metadata, int brokerId) {
        this.client = client;
        this.metadata = metadata;
        this.brokerId = brokerId;
    }

    /** Returns whether leadership was handed over (or nothing had to be); never throws. */
    boolean run(Duration timeout) {
        if (!hasLeadershipToHandOver(metadata.snapshot())) {
            return true;
        }
        log.info("Broker {} asks the controller to move its leaderships away before it shuts down", brokerId);
        try {
            client.create().withMode(CreateMode.EPHEMERAL)
                .forPath(ClusterPaths.controlledShutdownRequest(brokerId), ClusterJson.controlledShutdownRequest(false));
        } catch (KeeperException.NodeExistsException e) {
            // asked before, in this session
        } catch (Exception e) {
            log.warn("Broker {} could not ask for a controlled shutdown: {}", brokerId, e.toString());
            return false;
        }
        try {
            metadata.whenTrue(s -> s.controlledShutdownDone(brokerId)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            log.info("Broker {}: the controller moved its leaderships away", brokerId);
            return true;
        } catch (TimeoutException e) {
            log.warn("Broker {}: leaderships not moved within {} ms; shutting down all the same", brokerId, timeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            log.warn("Broker {}: controlled shutdown failed: {}", brokerId, e.getCause().toString());
        }
        return false;
    }

    /** Whether this broker leads a partition with another live in-sync replica to lead it instead. */
    private boolean hasLeadershipToHandOver(ClusterSnapshot snapshot) {
        boolean[] found = {false};
        snapshot.forEachPartition((tp, partition) -> found[0] |= partition.leader() == brokerId
            && partition.isr().stream().anyMatch(r -> r != brokerId && snapshot.isLive(r)));
        return found[0];
    }
}
