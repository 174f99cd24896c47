package io.millrace.broker.cluster;

import io.millrace.common.errors.MillraceException;
import io.millrace.common.utils.Time;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This broker's ephemeral registration, {@code /millrace/brokers/ids/<id>} holding
 * {@code {"version":1,"host":..,"port":..,"rack":..,"timestamp":..}}.
 *
 * <p>At startup a registration held by another session is either this broker's own, left by a
 * run that crashed before ZooKeeper expired its session, or another broker given the same id. The
 * two are told apart by the listener the registration names: a live broker cannot be reachable at
 * the address this broker has just bound, so a registration naming the same host and port is a
 * predecessor's. When the predecessor recorded that session ({@link PreviousSession}), startup
 * ends it, which deletes its znodes at once; otherwise it waits for the server to expire it
 * (watching for its deletion, bounded by the session timeout and a margin). Either way the znode
 * goes with its session rather than being deleted by hand, so the controller and the other brokers
 * see the old run end before the new one appears. A registration naming another address fails
 * startup at once, as does one still held when the wait runs out.
 *
 * <p>After a lost session the znode may still be there for a while, held by our own expired
 * session (the server expires it one session timeout after it last heard from us). Every session
 * that ever held our registration is remembered, so such a leftover is recognised, deleted (with
 * its version, so nothing newer is touched) and replaced at once; a registration held by a session
 * that was never ours is left alone and logged, since another broker has taken the id. A
 * registration held by the current session (a create whose answer was lost) is already ours.
 *
 * <p>Thread-safe: every method that touches ZooKeeper is synchronized.
 */
final class BrokerRegistration {

    private static final Logger log = LoggerFactory.getLogger(BrokerRegistration.class);
    private static final int ATTEMPTS = 5;
    /** How often the wait for a predecessor's expiry looks again, should the watch be lost with a connection. */
    private static final long RECHECK_MS = 1_000;
    private static final long MIN_EXPIRY_MARGIN_MS = 2_000;

    private final CuratorFramework client;
    private final int brokerId;
    private final String host;
    private final int port;
    private final String rack;
    private final int sessionTimeoutMs;
    private final Time time;
    private final String path;
    /** Where the session holding the registration is recorded for the next run; null: nowhere. */
    private final PreviousSession previousSession;
    /** Released by every event on a watched registration: it was deleted or changed. */
    private final Semaphore registrationChanged = new Semaphore(0);
    private final Watcher changeWatcher = event -> registrationChanged.release();
    /** Every session id that has held our znode. Guarded by this. */
    private final Set<Long> ourSessions = new HashSet<>();
    /** True from a successful {@link #register} until {@link #deregister}. Guarded by this. */
    private boolean wanted;
    /** The session holding our znode, or -1 while we believe we are not registered. */
    private volatile long registeredSession = -1;

    BrokerRegistration(CuratorFramework client, int brokerId, String host, int port, String rack, int sessionTimeoutMs,
                       Time time, PreviousSession previousSession) {
        this.client = client;
        this.brokerId = brokerId;
        this.host = host;
        this.port = port;
        this.rack = rack;
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.time = time;
        this.path = ClusterPaths.broker(brokerId);
        this.previousSession = previousSession;
    }

    /**
     * Registers at startup, first waiting out a registration this broker left before a crash (one
     * naming the same host and port) for up to {@link #expiryWaitMs()}.
     *
     * @throws BrokerIdConflictException at once if a registration naming another address holds the
     *                                   id, or when one naming ours is still held after the wait
     */
    synchronized void register() throws Exception {
        long waitStart = -1;
        int lostRaces = 0;
        boolean triedToEndIt = false;
        while (true) {
            Stat stat = new Stat();
            byte[] existing = dataOrNull(stat);
            if (existing == null) {
                if (tryCreate()) {
                    break;
                }
                if (++lostRaces == ATTEMPTS) {
                    throw keptChanging();
                }
                continue;
            }
            long owner = stat.getEphemeralOwner();
            if (owner == currentSession()) {
                registeredSession = owner;
                break;
            }
            if (!namesOurListener(existing)) {
                throw conflict(owner, existing);
            }
            if (!triedToEndIt) {
                triedToEndIt = true;
                if (endPreviousSession(owner)) {
                    continue;
                }
            }
            if (waitStart < 0) {
                waitStart = System.nanoTime();
                log.warn("Broker {}: {} is held by ZooKeeper session 0x{}, which names this broker's own listener {}:{}: "
                    + "a previous run that did not deregister. Waiting up to {} ms for the session to expire",
                    brokerId, path, Long.toHexString(owner), host, port, expiryWaitMs());
            }
            awaitChange(owner, existing, waitStart);
        }
        if (waitStart >= 0) {
            log.info("Broker {} registered after waiting {} ms for its previous registration to expire", brokerId,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - waitStart));
        }
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
            if (previousSession != null) {
                previousSession.delete(); // the session ends with this shutdown: nothing for the next run to end
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

    /** Registers again after a lost session: replaces a leftover of one of ours, refuses anyone else's. */
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
        throw keptChanging();
    }

    private MillraceException keptChanging() {
        return new MillraceException("Could not register broker " + brokerId + ": " + path + " kept changing");
    }

    /**
     * Sleeps until the watched registration changes or a recheck is due.
     *
     * @throws BrokerIdConflictException once the registration has outlived {@link #expiryWaitMs()}
     */
    private void awaitChange(long owner, byte[] existing, long waitStart) throws Exception {
        long waitedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - waitStart);
        long remainingMs = expiryWaitMs() - waitedMs;
        if (remainingMs <= 0) {
            throw stillHeld(owner, existing, waitedMs);
        }
        registrationChanged.tryAcquire(Math.min(remainingMs, RECHECK_MS), TimeUnit.MILLISECONDS);
        registrationChanged.drainPermits();
    }

    /**
     * How long a predecessor's registration may take to expire: the session timeout (the larger of
     * ours as configured and as the server granted it, as the server may have widened it), plus half
     * of it, at least {@value #MIN_EXPIRY_MARGIN_MS} ms, since the server expires sessions on its
     * ticks, of which there are at least two to a session timeout.
     */
    long expiryWaitMs() throws Exception {
        long timeout = Math.max(sessionTimeoutMs, client.getZookeeperClient().getZooKeeper().getSessionTimeout());
        return timeout + Math.max(MIN_EXPIRY_MARGIN_MS, timeout / 2);
    }

    /** Whether a registration's data names the host and port this broker registers. */
    private boolean namesOurListener(byte[] existing) {
        try {
            BrokerInfo other = ClusterJson.parseBroker(brokerId, existing);
            return other.port() == port && other.host().equalsIgnoreCase(host);
        } catch (MillraceException e) {
            return false;
        }
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
        recordSession(created.getEphemeralOwner());
        log.info("Broker {} registered at {}:{} (session 0x{})", brokerId, host, port, Long.toHexString(registeredSession));
        return true;
    }

    /**
     * Ends the session that holds our registration if this broker's previous run recorded it as its
     * own; the server deletes the registration with it before answering.
     */
    private boolean endPreviousSession(long owner) throws InterruptedException {
        if (previousSession == null) {
            return false;
        }
        long start = System.nanoTime();
        if (!previousSession.closeIfOwner(owner, client.getZookeeperClient().getCurrentConnectionString(), sessionTimeoutMs)) {
            return false;
        }
        log.warn("Broker {}: {} was held by ZooKeeper session 0x{}, which this broker's previous run recorded in {} and did not "
            + "end (it crashed, or stopped while ZooKeeper was down). Ended that session in {} ms instead of waiting for it to "
            + "expire", brokerId, path, Long.toHexString(owner), previousSession.file(),
            TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        return true;
    }

    /** Records the session that now holds the registration, for the next run should this one crash. */
    private void recordSession(long session) throws Exception {
        ZooKeeper zk = client.getZookeeperClient().getZooKeeper();
        if (previousSession != null && zk.getSessionId() == session) {
            previousSession.save(session, zk.getSessionPasswd());
        }
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
            return client.getData().storingStatIn(stat).usingWatcher(changeWatcher).forPath(path);
        } catch (KeeperException.NoNodeException e) {
            return null;
        }
    }

    private BrokerIdConflictException conflict(long owner, byte[] existing) {
        return new BrokerIdConflictException("Broker id " + brokerId + " is already registered at " + path + " by a live broker at "
            + holder(existing) + " (ZooKeeper session 0x" + Long.toHexString(owner) + "), while this broker is at " + host + ":"
            + port + ". Every broker needs its own broker.id. (A broker restarted with the same listener waits for its "
            + "previous registration to expire instead.)");
    }

    private BrokerIdConflictException stillHeld(long owner, byte[] existing, long waitedMs) {
        return new BrokerIdConflictException("Broker id " + brokerId + " is still registered at " + path + " by ZooKeeper session 0x"
            + Long.toHexString(owner) + " at " + holder(existing) + ", this broker's own listener, after waiting " + waitedMs
            + " ms for it to expire (" + ClusterConfig.ZOOKEEPER_SESSION_TIMEOUT_MS_CONFIG + " " + sessionTimeoutMs
            + " plus a margin). Either another live broker has the same broker.id and advertises the same address, "
            + "or the previous run of this broker had a longer session timeout: start again once its registration is gone.");
    }

    private String holder(byte[] existing) {
        try {
            BrokerInfo other = ClusterJson.parseBroker(brokerId, existing);
            return other.host() + ":" + other.port();
        } catch (MillraceException e) {
            return "an unreadable address";
        }
    }

    private long currentSession() throws Exception {
        return client.getZookeeperClient().getZooKeeper().getSessionId();
    }
}
