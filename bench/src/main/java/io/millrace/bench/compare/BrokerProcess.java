package io.millrace.bench.compare;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One broker under test, in a JVM of its own started from this JVM's java and classpath, with its
 * data in a fresh directory under a common parent (so both sides write to the same filesystem).
 * {@link #close()} stops the process (SIGTERM, then SIGKILL after a grace period) and deletes the
 * directory; it is also run from a shutdown hook, so a failed or interrupted run leaves neither
 * behind.
 */
public abstract class BrokerProcess implements AutoCloseable {

    static final Duration START_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration STOP_GRACE = Duration.ofSeconds(30);

    final String name;
    final Path home;
    final Path processLog;
    final String heap;
    Process process;
    /** JVM options beyond the heap, the same for either broker (e.g. a flight recording). */
    final List<String> jvmOptions = new ArrayList<>();
    private final Thread hook;
    private boolean closed;

    BrokerProcess(String name, Path parent, Path processLog, String heap) throws IOException {
        this.name = name;
        this.home = Files.createTempDirectory(parent, name + "-");
        this.processLog = processLog;
        this.heap = heap;
        this.hook = new Thread(this::closeQuietly, name + "-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Starts the broker; returns once clients can connect. */
    abstract void start() throws Exception;

    /** What Kafka clients take as {@code bootstrap.servers}. */
    abstract String bootstrapServers();

    /** The directory holding the partition directories ({@code <topic>-<partition>}). */
    abstract Path logDir();

    /** {@link #logDir()}, for benchmarks outside this package. */
    public Path logDirectory() {
        return logDir();
    }

    /** The broker JVM's process id, to read its memory from {@code /proc}. */
    public long pid() {
        if (process == null) {
            throw new IllegalStateException(name + " is not running");
        }
        return process.pid();
    }

    /**
     * Ends the broker's JVM with SIGKILL, as a crash would, leaving its data as it is on disk, and
     * waits until it is gone. {@link #relaunch()} starts it again on the same data.
     */
    public void kill() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                throw new IllegalStateException(name + " still running 30 s after SIGKILL");
            }
        }
    }

    /**
     * Starts the broker's JVM again on the data and client port it had, after {@link #kill()}, and
     * returns as soon as the process is spawned, so the caller can time how long it takes to serve.
     * Only the single brokers of the comparison support it.
     */
    public void relaunch() throws IOException {
        throw new UnsupportedOperationException(name + " cannot be relaunched");
    }

    /**
     * After {@link #relaunch()}: waits until the broker has taken its place in the cluster again, which
     * is not always when it starts to answer clients. Only the single brokers of the comparison support it.
     */
    public void awaitRejoined(Duration timeout) throws IOException, InterruptedException {
        throw new UnsupportedOperationException(name + " cannot tell when it rejoined");
    }

    /**
     * Records a Java Flight Recording of the broker's whole life (the {@code profile} settings,
     * which sample Java stacks every 10-20 ms) into {@code file}, written when the JVM exits.
     */
    void recordFlight(Path file) {
        // debug information between safepoints too: without it a sample in inlined code is credited
        // to whichever frame the nearest safepoint names
        jvmOptions.add("-XX:+UnlockDiagnosticVMOptions");
        jvmOptions.add("-XX:+DebugNonSafepoints");
        jvmOptions.add("-XX:StartFlightRecording=settings=profile,method-profiling=max,filename=" + file.toAbsolutePath());
    }

    /** More options for the broker's JVM; call before {@link #start}. */
    void addJvmOptions(List<String> options) {
        jvmOptions.addAll(options);
    }

    /** Where the broker's JVM logs its collections, for {@link #gcPauses}. */
    Path gcLog() {
        return home.resolve("gc.log");
    }

    /** The broker JVM's stop-the-world pauses that ended between {@code from} and {@code to}. */
    GcLog.Pauses gcPauses(java.time.Instant from, java.time.Instant to) throws IOException {
        return GcLog.between(gcLog(), from, to);
    }

    /** A JVM with the given main class, the same java, classpath and heap for either broker. */
    List<String> javaCommand(String mainClass, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xms" + heap);
        cmd.add("-Xmx" + heap);
        cmd.add(GcLog.option(gcLog()));
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(absoluteClassPath());
        cmd.add(mainClass);
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** This JVM's classpath with every entry made absolute: the broker runs in its own directory. */
    static String absoluteClassPath() {
        List<String> entries = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            if (!e.isEmpty()) {
                entries.add(Path.of(e).toAbsolutePath().toString());
            }
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    ProcessBuilder builder(List<String> command) throws IOException {
        Files.createDirectories(processLog.getParent());
        return new ProcessBuilder(command).directory(home.toFile())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(processLog.toFile()));
    }

    /** The CPU time (user and system) the broker's JVM used so far, or NaN where the OS does not tell. */
    public double cpuMillis() {
        return process == null ? Double.NaN : CpuTime.millis(process.toHandle());
    }

    void checkNotRunning() {
        if (process == null || process.isAlive()) {
            throw new IllegalStateException(name + (process == null ? " was never started" : " is still running"));
        }
    }

    void checkAlive() {
        if (process != null && !process.isAlive()) {
            throw new IllegalStateException(name + " exited with " + process.exitValue() + "; see " + processLog);
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (process != null) {
                stop(process);
            }
        } finally {
            deleteRecursively(home);
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // called from the hook itself
            }
        }
    }

    private void closeQuietly() {
        try {
            close();
        } catch (RuntimeException e) {
            System.err.println("bench: cleaning up " + name + ": " + e);
        }
    }

    static void stop(Process p) {
        if (!p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (!p.waitFor(STOP_GRACE.toSeconds(), TimeUnit.SECONDS)) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    public static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not delete " + dir, e);
        }
    }
}
