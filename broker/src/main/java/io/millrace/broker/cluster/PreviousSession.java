package io.millrace.broker.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ZooKeeper session that holds this broker's registration, kept in a file of its first log
 * directory ({@value #FILE_NAME}) so that the next run, after a crash, can end that session itself
 * instead of waiting for the server to expire it: a broker killed with {@code kill -9} is back in
 * the cluster as soon as it has loaded its logs, not a session timeout later.
 *
 * <p>Only the run holding the log directory's lock writes the file, and a session is ended only
 * when it is the one that owns the registration znode naming this broker's own listener. Both
 * together mean the session is a dead predecessor's: a live process would hold the lock and the port.
 * The file holds the session's password, so it is readable by its owner only where the file
 * system allows it; a clean shutdown, which ends the session anyway, deletes it.
 */
final class PreviousSession {

    /** The file's name in the first log directory. */
    static final String FILE_NAME = "zookeeper-session";
    private static final Logger log = LoggerFactory.getLogger(PreviousSession.class);
    private static final String ID = "session.id";
    private static final String PASSWORD = "session.password";

    private final Path file;

    PreviousSession(Path file) {
        this.file = file;
    }

    Path file() {
        return file;
    }

    /** A session as the file records it. */
    record Saved(long id, byte[] password) {
    }

    /** Records the session that now holds the registration; a failure is logged, as the file only saves time. */
    void save(long sessionId, byte[] password) {
        Properties props = new Properties();
        props.setProperty(ID, Long.toHexString(sessionId));
        props.setProperty(PASSWORD, Base64.getEncoder().encodeToString(password));
        Path tmp = file.resolveSibling(FILE_NAME + ".tmp");
        try {
            Files.deleteIfExists(tmp);
            createOwnerOnly(tmp);
            try (var out = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
                props.store(out, "The ZooKeeper session holding this broker's registration; read at the next start");
            }
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException | RuntimeException e) {
            log.warn("Could not record the ZooKeeper session in {}; after a crash the next start waits for it to expire: {}",
                file, e.toString());
        }
    }

    /** The recorded session, if the file is there and reads. */
    Optional<Saved> read() {
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            Properties props = new Properties();
            props.load(in);
            return Optional.of(new Saved(Long.parseUnsignedLong(props.getProperty(ID), 16),
                Base64.getDecoder().decode(props.getProperty(PASSWORD))));
        } catch (IOException | RuntimeException e) {
            log.warn("Ignoring {}, which does not read as a ZooKeeper session: {}", file, e.toString());
            return Optional.empty();
        }
    }

    /** Forgets the session: it ended with a clean shutdown. */
    void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            log.debug("Could not delete {}: {}", file, e.toString());
        }
    }

    /**
     * Ends the recorded session if it is {@code owner}: attaches to it with its id and password and
     * closes it, which makes the server delete its ephemeral znodes before it answers.
     *
     * @param connectString the ZooKeeper servers, without a chroot
     * @return whether the session was closed; false when none is recorded, another one is, or the
     *         server would not attach (the session already expired, or a wrong password)
     */
    boolean closeIfOwner(long owner, String connectString, int timeoutMs) throws InterruptedException {
        Optional<Saved> saved = read();
        if (saved.isEmpty() || saved.get().id() != owner) {
            return false;
        }
        CountDownLatch answered = new CountDownLatch(1);
        AtomicReference<Watcher.Event.KeeperState> state = new AtomicReference<>();
        Watcher watcher = event -> {
            if (event.getState() == Watcher.Event.KeeperState.SyncConnected || event.getState() == Watcher.Event.KeeperState.Expired) {
                state.compareAndSet(null, event.getState());
                answered.countDown();
            }
        };
        ZooKeeper zk;
        try {
            zk = new ZooKeeper(connectString, timeoutMs, watcher, owner, saved.get().password());
        } catch (IOException | RuntimeException e) {
            log.warn("Could not attach to ZooKeeper session 0x{} to end it: {}", Long.toHexString(owner), e.toString());
            return false;
        }
        boolean attached = false;
        try {
            attached = answered.await(timeoutMs, TimeUnit.MILLISECONDS) && state.get() == Watcher.Event.KeeperState.SyncConnected;
        } finally {
            // Closing an attached session ends it on the server; closing one it refused only stops this client.
            attached = zk.close(timeoutMs) && attached;
        }
        return attached;
    }

    private static void createOwnerOnly(Path path) throws IOException {
        try {
            Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (UnsupportedOperationException e) {
            Files.createFile(path);
        }
    }
}
