package io.millrace.hadoop.state;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lock that keeps loads of one state directory from overlapping: {@code <state.dir>/load.lock},
 * created only if absent ({@link ExclusiveCreate}), naming the load that holds it. It lives in the
 * state directory itself, so two schedulers on two machines see the same lock. The holder renews it
 * (its modification time) every quarter of the lease; a lock not renewed for a whole lease belongs
 * to a load that died (kill -9, a lost machine) and the next load takes it over. Loads that overlap
 * anyway (a holder stalled past its lease) are still caught at the commit point, which only one wins.
 */
public final class LoadLock implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LoadLock.class);
    static final String NAME = "load.lock";

    private final FileSystem fs;
    private final Path path;
    private final String holder;
    private final ScheduledExecutorService renewer;

    private LoadLock(FileSystem fs, Path path, String holder, long leaseMs) {
        this.fs = fs;
        this.path = path;
        this.holder = holder;
        this.renewer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "load-lock-renewer");
            thread.setDaemon(true);
            return thread;
        });
        long period = Math.max(1, leaseMs / 4);
        renewer.scheduleAtFixedRate(this::renew, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Takes the lock for the load {@code runId}.
     *
     * @throws ConcurrentLoadException when another load holds it and has renewed it within {@code leaseMs}
     */
    public static LoadLock acquire(StateDir state, String runId, long leaseMs) throws IOException {
        FileSystem fs = state.fs();
        Path path = new Path(state.root(), NAME);
        String holder = "run " + runId + " on " + hostName() + " pid " + ProcessHandle.current().pid() + " since "
            + Instant.now();
        fs.mkdirs(state.root());
        if (!tryCreate(state, path, holder, runId)) {
            takeOverIfStale(state, path, leaseMs);
            if (!tryCreate(state, path, holder, runId)) {
                throw new ConcurrentLoadException("Another load of " + state.root() + " is running (" + read(fs, path)
                    + "): loads of one state directory must not overlap. This load started nothing.");
            }
        }
        LOG.info("Load lock {} taken by {}", path, holder);
        return new LoadLock(fs, path, holder, leaseMs);
    }

    private static boolean tryCreate(StateDir state, Path path, String holder, String runId) throws IOException {
        Path written = new Path(state.root(), NAME + "." + runId);
        try (OutputStream out = state.fs().create(written, true)) {
            out.write(holder.getBytes(StandardCharsets.UTF_8));
        }
        boolean created = ExclusiveCreate.moveIfAbsent(state.fs(), written, path);
        if (!created) {
            state.fs().delete(written, false);
        }
        return created;
    }

    /** Moves aside a lock whose holder stopped renewing it a whole lease ago. */
    private static void takeOverIfStale(StateDir state, Path path, long leaseMs) throws IOException {
        FileStatus status;
        try {
            status = state.fs().getFileStatus(path);
        } catch (java.io.FileNotFoundException released) {
            return;
        }
        long idleMs = System.currentTimeMillis() - status.getModificationTime();
        String stale = read(state.fs(), path);
        if (idleMs > leaseMs || heldByADeadProcessHere(stale)) {
            Path aside = new Path(state.root(), NAME + ".stale-" + System.nanoTime());
            if (state.fs().rename(path, aside)) {
                LOG.warn("Load lock {} last renewed {} ms ago (lease {} ms) by a load that is gone ({}); taking it over",
                    path, idleMs, leaseMs, stale);
                state.fs().delete(aside, false);
            }
        }
    }

    private void renew() {
        try {
            fs.setTimes(path, System.currentTimeMillis(), -1);
        } catch (IOException | RuntimeException e) {
            LOG.warn("Could not renew the load lock {}: {}", path, e.toString());
        }
    }

    /** Gives the lock up, if it is still this load's. */
    @Override
    public void close() throws IOException {
        renewer.shutdownNow();
        if (holder.equals(read(fs, path))) {
            fs.delete(path, false);
        }
    }

    private static String read(FileSystem fs, Path path) throws IOException {
        try (FSDataInputStream in = fs.open(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (java.io.FileNotFoundException gone) {
            return "";
        }
    }

    /** A holder on this machine whose process has ended (killed, or its machine restarted) holds nothing. */
    private static boolean heldByADeadProcessHere(String holder) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(" on (\\S+) pid (\\d+) ").matcher(holder);
        return m.find() && m.group(1).equals(hostName()) && ProcessHandle.of(Long.parseLong(m.group(2))).isEmpty();
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "unknown-host";
        }
    }
}
