package io.millrace.broker.cluster;

import io.millrace.common.errors.MillraceException;
import io.millrace.common.utils.Time;
import java.util.HashSet;
import java.util.Set;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's ephemeral registration, {@code /millrace/brokers/ids/<id>} holding
 * {@code {"version":1,"host":..,"port":..,"rack":..,"timestamp":..}}.
 *
 * <p>At startup a registration held by another session is a duplicate broker id and fails
 * startup. After a lost session the znode may still be there for a while, held by our own expired
 * session (the server expires it one session timeout after it last heard from us). Every session
 * that ever held our registration is remembered, so such a leftover is recognised, deleted (with
 * its version, so nothing newer is touched) and replaced at once; a registration held by a session
 * that was never ours is left alone and logged, since another broker has taken the id.
 *
 * <p>Thread-safe: every method that touches ZooKeeper is synchronized.
 */
final class BrokerRegistration {

    private static final Logger log = LoggerFactory.getLogger(BrokerRegistration.class);
    private static final int ATTEMPTS = 5;

    private final CuratorFramework client;
    private final int brokerId;
    private final String host;
    private final int port;
    private final String rack;
    private final Time time;
    private final String path;
    /** Every session id that has held our znode. Guarded by this. */
    private final Set<Long> ourSessions = new HashSet<>();
    /** True from a successful {@link #register} until {@link #deregister}. Guarded by this. */
    private boolean wanted;
    /** The session holding our znode, or -1 while we believe we are not registered. */
    private volatile long registeredSession = -1;

    BrokerRegistration(CuratorFramework client, int brokerId, String host, int port, String rack, Time time) {
        this.client = client;
        this.brokerId = brokerId;
        this.host = host;
        this.port = port;
        this.rack = rack;
        this.time = time;
        this.path = ClusterPaths.broker(brokerId);
    }

    /** Registers at startup; throws {@link BrokerIdConflictException} if a live session already holds the id. */
    synchronized void register() throws Exception {
        claim(false);
        wanted = true;
    }

    /**
     * Registers again if our znode is gone or held by one of our expired sessions; called when the
     * connection returns and whenever the metadata view shows us missing. Never throws.
     */
    synchronized void ensureRegistered() {
        if (!wanted) {
            return;
        }
        try {
            claim(true);
        } catch (BrokerIdConflictException e) {
            registeredSession = -1;
            log.error("Broker {} is not registered: {}", brokerId, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // shutting down
        } catch (Exception e) {
            log.warn("Broker {} could not re-register yet; will retry when the connection or the metadata changes: {}",
                brokerId, e.toString());
        }
    }

    /**
     * Deletes our znode if the current session holds it, so other brokers see us go at once.
     * Skipped while disconnected, rather than waiting out the retries: the session's end removes
     * the znode anyway.
     */
    synchronized void deregister() {
        wanted = false;
        registeredSession = -1;
        if (!client.getZookeeperClient().isConnected()) {
            log.info("Broker {} is disconnected; its registration goes when its session ends", brokerId);
            return;
        }
        try {
            Stat stat = client.checkExists().forPath(path);
            if (stat != null && stat.getEphemeralOwner() == currentSession()) {
                client.delete().withVersion(stat.getVersion()).forPath(path);
                log.info("Broker {} deregistered", brokerId);
            }
        } catch (Exception e) {
            // Closing the session removes the ephemeral znode anyway.
            log.debug("Broker {} left deregistration to the session close: {}", brokerId, e.toString());
        }
    }

    /** The session expired: ZooKeeper has removed, or is about to remove, our znode. */
    void sessionLost() {
        registeredSession = -1;
    }

    boolean isRegistered() {
        return registeredSession != -1;
    }

    private void claim(boolean replaceOurLeftovers) throws Exception {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Stat stat = new Stat();
            byte[] existing = dataOrNull(stat);
            if (existing == null) {
                if (tryCreate()) {
                    return;
                }
                continue;
            }
            long owner = stat.getEphemeralOwner();
            if (owner == currentSession()) {
                registeredSession = owner;
                return;
            }
            if (!replaceOurLeftovers || !ourSessions.contains(owner)) {
                throw conflict(owner, existing);
            }
            deleteLeftover(stat);
        }
        throw new MillraceException("Could not register broker " + brokerId + ": " + path + " kept changing");
    }

    private boolean tryCreate() throws Exception {
        BrokerInfo info = new BrokerInfo(brokerId, host, port, rack, time.milliseconds());
        Stat created = new Stat();
        try {
            client.create().storingStatIn(created).withMode(CreateMode.EPHEMERAL).forPath(path, ClusterJson.broker(info));
        } catch (KeeperException.NodeExistsException e) {
            return false; // someone (perhaps a retry of ours) got there first; look again
        }
        ourSessions.add(created.getEphemeralOwner());
        registeredSession = created.getEphemeralOwner();
        log.info("Broker {} registered at {}:{} (session 0x{})", brokerId, host, port, Long.toHexString(registeredSession));
        return true;
    }

    private void deleteLeftover(Stat stat) throws Exception {
        try {
            client.delete().withVersion(stat.getVersion()).forPath(path);
            log.info("Broker {} removed the registration left by its expired session 0x{}", brokerId,
                Long.toHexString(stat.getEphemeralOwner()));
        } catch (KeeperException.NoNodeException | KeeperException.BadVersionException e) {
            // The server expired it first, or it changed: look again.
        }
    }

    private byte[] dataOrNull(Stat stat) throws Exception {
        try {
            return client.getData().storingStatIn(stat).forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    private BrokerIdConflictException conflict(long owner, byte[] existing) {
        String holder;
        try {
            BrokerInfo other = ClusterJson.parseBroker(brokerId, existing);
            holder = other.host() + ":" + other.port();
        } catch (MillraceException e) {
            holder = "an unreadable address";
        }
        return new BrokerIdConflictException("Broker id " + brokerId + " is already registered at " + path + " by a live broker at "
            + holder + " (ZooKeeper session 0x" + Long.toHexString(owner) + "). Every broker needs its own broker.id; if this "
            + "broker has just restarted, its previous session has not expired yet: start again after "
            + ClusterConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG + ".");
    }

    private long currentSession() throws Exception {
        return client.getZookeeperClient().getZooKeeper().getSessionId();
    }
}
