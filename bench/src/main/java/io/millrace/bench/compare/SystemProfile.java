package io.millrace.bench.compare;

import io.millrace.bench.profile.CallTree;
import io.millrace.bench.profile.PerfScriptSamples;
import io.millrace.bench.profile.TimeWindow;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * {@code bench --perf}: every CPU's time in each measured run, the kernel's included, where
 * {@code --jfr} sees only Java code. Linux's {@code perf record -a -g} samples both CPUs at
 * {@value #FREQUENCY_HZ} Hz for the whole matrix, stamping samples with wall-clock time so that
 * the runs' windows cut them; the JVMs keep frame pointers (so perf can walk their Java stacks) and
 * write perf maps (so their compiled frames have names). The brokers' JVMs get the options here
 * ({@link #JVM_OPTIONS}); this JVM, the clients', gets them from {@code bin/millrace bench --perf}.
 */
final class SystemProfile {

    static final int FREQUENCY_HZ = 499;
    /** Frame pointers for perf's stack walks, and a perf map of the compiled code when the JVM exits. */
    static final List<String> JVM_OPTIONS = List.of("-XX:+UnlockDiagnosticVMOptions", "-XX:+PreserveFramePointer",
        "-XX:+DumpPerfMapAtExit");
    static final String OTHER = "other processes";
    private static final String NEEDS = "--perf needs Linux perf on the PATH and leave to sample every CPU (root, or "
        + "kernel.perf_event_paranoid at most 0)";
    private static final long STOP_TIMEOUT_S = 120;

    private final Path data;
    private final Path log;
    private final Map<Long, String> processNames = new ConcurrentHashMap<>();
    private Process perf;

    SystemProfile(Path logs) {
        this.data = logs.resolve("system.perf.data");
        this.log = logs.resolve("perf.log");
        processNames.put(ProcessHandle.current().pid(), "clients JVM (this one)");
    }

    /** Names a process in the graphs (a broker's JVM); every process not named is {@value #OTHER}. */
    void name(long pid, String name) {
        processNames.put(pid, name);
    }

    /** Starts sampling every CPU; fails at once when perf is missing or may not sample the whole system. */
    void start() throws IOException, InterruptedException {
        Files.createDirectories(data.getParent());
        try {
            perf = new ProcessBuilder("perf", "record", "-a", "-g", "-F", String.valueOf(FREQUENCY_HZ), "-k", "realtime",
                "-o", data.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new IOException("Could not run perf (" + e.getMessage() + "). " + NEEDS, e);
        }
        if (perf.waitFor(2, TimeUnit.SECONDS)) {
            throw new IOException("perf record stopped at once (exit " + perf.exitValue() + "): " + Files.readString(log).trim()
                + ". " + NEEDS);
        }
    }

    /**
     * Stops sampling and reads the samples of each key's windows into a tree whose first level is the
     * process; call it once the brokers' JVMs have exited, so their perf maps are written.
     */
    Map<String, CallTree> stopAndRead(Map<String, ? extends Collection<TimeWindow>> windows) throws IOException,
            InterruptedException {
        stop();
        writeThisJvmsPerfMap();
        Process script = new ProcessBuilder("perf", "script", "-i", data.toString(), "-F", "comm,pid,tid,time,ip,sym,dso")
            .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        Map<String, CallTree> trees;
        try (BufferedReader out = new BufferedReader(new InputStreamReader(script.getInputStream(), StandardCharsets.UTF_8))) {
            trees = PerfScriptSamples.read(out, windows, pid -> processNames.getOrDefault(pid, OTHER));
        }
        if (script.waitFor() != 0) {
            throw new IOException("perf script failed (exit " + script.exitValue() + "), see " + log);
        }
        return trees;
    }

    private void stop() throws IOException, InterruptedException {
        if (perf == null) {
            return;
        }
        perf.destroy(); // SIGTERM: perf record writes its data and exits
        if (!perf.waitFor(STOP_TIMEOUT_S, TimeUnit.SECONDS)) {
            perf.destroyForcibly();
            throw new IOException("perf record did not stop within " + STOP_TIMEOUT_S + " s");
        }
        perf = null;
    }

    /** This JVM is still running: its perf map comes from the diagnostic command jcmd's Compiler.perfmap runs. */
    private static void writeThisJvmsPerfMap() throws IOException {
        try {
            ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"),
                "compilerPerfmap", new Object[] {new String[0]}, new String[] {String[].class.getName()});
        } catch (JMException e) {
            throw new IOException("Could not write this JVM's perf map", e);
        }
    }
}
