package io.millrace.bench.compare;

import io.millrace.bench.compare.report.FlameGraphSvg;
import io.millrace.bench.compare.report.HtmlReport;
import io.millrace.bench.profile.CallTree;
import io.millrace.bench.profile.FlightRecordingSamples;
import io.millrace.bench.profile.TimeWindow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;

/**
 * {@code bench --jfr} and {@code --perf}: where each scenario's CPU time went, as flame graphs.
 * Every measured run of a scenario in a cell is a time window; afterwards the samples are cut by
 * those windows into one {@link CallTree} per scenario and cell.
 *
 * <p>With {@code --jfr} this JVM (the clients) records itself, and each broker JVM records itself
 * ({@link BrokerProcess#recordFlight}), all sampling Java stacks every millisecond: drawn as
 * {@code flames/<scenario>--<cell>--client.svg} and {@code --broker.svg}, with
 * {@code flames/top-frames.md} listing the frames the samples stopped in most. With {@code --perf}
 * the whole machine is sampled, kernel and idle time included ({@link SystemProfile}): drawn as
 * {@code --system.svg}, with {@code flames/system-shares.md} giving each process's and thread's share
 * of the CPUs and the frames the samples stopped in most.
 */
final class ScenarioProfiles {

    /** JFR's method sampling at its finest: a scenario run here lasts well under a second. */
    static final String SAMPLING_PERIOD = "1 ms";
    static final int TOP_FRAMES = 12;

    private final Path dir;
    private final Path clientRecording;
    private final Map<String, List<TimeWindow>> windows = new LinkedHashMap<>();
    private final Map<String, Cell> cells = new HashMap<>();
    private final boolean flightRecordings;
    private final SystemProfile system;
    private Recording recording;

    ScenarioProfiles(Path out, boolean flightRecordings, boolean systemWide) {
        this.dir = out.resolve(HtmlReport.FLAMES);
        this.clientRecording = out.resolve("logs").resolve("clients.jfr");
        this.flightRecordings = flightRecordings;
        this.system = systemWide ? new SystemProfile(out.resolve("logs")) : null;
    }

    /** The whole machine's sampling, or null without {@code --perf}. */
    SystemProfile system() {
        return system;
    }

    /** Starts recording this JVM (--jfr) and sampling the machine (--perf). */
    void start() throws IOException, InterruptedException {
        if (flightRecordings) {
            startFlightRecording();
        }
        if (system != null) {
            system.start();
        }
    }

    private void startFlightRecording() throws IOException {
        Files.createDirectories(clientRecording.getParent());
        Map<String, String> settings;
        try {
            settings = new HashMap<>(Configuration.getConfiguration("profile").getSettings());
        } catch (ParseException e) {
            throw new IOException("JFR's profile settings could not be read", e);
        }
        settings.put(FlightRecordingSamples.EXECUTION_SAMPLE + "#period", SAMPLING_PERIOD);
        recording = new Recording(settings);
        recording.setName("bench-clients");
        recording.setDestination(clientRecording);
        recording.start();
    }

    /** Runs {@code work} as one measured run of {@code scenario} in {@code cell}, remembering when. */
    <T> T measure(String scenario, Cell cell, Callable<T> work) throws Exception {
        Instant start = Instant.now();
        try {
            return work.call();
        } finally {
            String key = key(scenario, cell);
            windows.computeIfAbsent(key, k -> new ArrayList<>()).add(new TimeWindow(start, Instant.now()));
            cells.put(key, cell);
        }
    }

    /**
     * Stops recording and sampling and draws the flame graphs into the directory it returns; call it
     * after the brokers exited, when their recordings ({@code brokerRecordings} by broker name) and
     * perf maps are complete.
     */
    Path render(Map<String, Path> brokerRecordings) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        if (flightRecordings) {
            renderFlightRecordings(brokerRecordings);
        }
        if (system != null) {
            renderSystem(system.stopAndRead(windows));
        }
        return dir;
    }

    private void renderFlightRecordings(Map<String, Path> brokerRecordings) throws IOException {
        if (recording != null) {
            recording.stop();
            recording.close();
            recording = null;
        }
        Map<String, CallTree> clients = FlightRecordingSamples.read(clientRecording, windows);
        Map<String, Map<String, CallTree>> brokers = new HashMap<>();
        for (Map.Entry<String, Path> e : brokerRecordings.entrySet()) {
            if (Files.isRegularFile(e.getValue())) {
                brokers.put(e.getKey(), FlightRecordingSamples.read(e.getValue(), windowsOn(e.getKey())));
            }
        }
        StringBuilder top = new StringBuilder("# Where the time went, by scenario and cell\n\n"
            + "Java execution samples every " + SAMPLING_PERIOD + " (time in system calls and waiting is not sampled).\n");
        for (String key : windows.keySet()) {
            Cell cell = cells.get(key);
            draw(key, "client", cell.clientName() + " client (this JVM)", clients.get(key), top);
            Map<String, CallTree> broker = brokers.get(cell.broker);
            if (broker != null) {
                draw(key, "broker", cell.broker + " broker JVM", broker.get(key), top);
            }
        }
        Files.writeString(dir.resolve("top-frames.md"), top, StandardCharsets.UTF_8);
    }

    private void renderSystem(Map<String, CallTree> trees) throws IOException {
        StringBuilder shares = new StringBuilder("# Where both CPUs' time went, by scenario and cell\n\n"
            + "perf samples of every CPU at " + SystemProfile.FREQUENCY_HZ + " Hz, the kernel and the idle loop included; "
            + "kernel frames are marked [k].\n");
        for (String key : windows.keySet()) {
            CallTree tree = trees.get(key);
            String title = key.replace("|", ", ") + ": both CPUs";
            Path svg = dir.resolve(fileName(key) + "--system.svg");
            Files.writeString(svg, FlameGraphSvg.render(tree, title), StandardCharsets.UTF_8);
            shares.append(SystemShares.of(tree, title, svg.getFileName().toString(), TOP_FRAMES));
        }
        Files.writeString(dir.resolve("system-shares.md"), shares, StandardCharsets.UTF_8);
    }

    private Map<String, List<TimeWindow>> windowsOn(String broker) {
        Map<String, List<TimeWindow>> on = new LinkedHashMap<>();
        windows.forEach((key, w) -> {
            if (cells.get(key).broker.equals(broker)) {
                on.put(key, w);
            }
        });
        return on;
    }

    private void draw(String key, String side, String process, CallTree tree, StringBuilder top) throws IOException {
        String title = key.replace("|", ", ") + ": " + process;
        Path svg = dir.resolve(fileName(key) + "--" + side + ".svg");
        Files.writeString(svg, FlameGraphSvg.render(tree, title), StandardCharsets.UTF_8);
        top.append("\n## ").append(title).append("\n\n")
            .append(String.format(Locale.ROOT, "%,d samples, flame graph `%s`%n%n", tree.totalSamples(), svg.getFileName()))
            .append("| self % | frame |\n| ---: | --- |\n");
        List<Map.Entry<String, Long>> self = tree.selfTimes();
        for (Map.Entry<String, Long> e : self.subList(0, Math.min(TOP_FRAMES, self.size()))) {
            top.append(String.format(Locale.ROOT, "| %.1f | `%s` |%n", 100.0 * e.getValue() / tree.totalSamples(), e.getKey()));
        }
    }

    static String key(String scenario, Cell cell) {
        return scenario + "|" + cell.id();
    }

    /** {@code 1. producer, batch 50|kafka-client/millrace-broker} becomes {@code 1-producer-batch-50--kafka-client-millrace-broker}. */
    static String fileName(String key) {
        String[] parts = key.split("\\|", 2);
        return slug(parts[0]) + "--" + slug(parts[1]);
    }

    private static String slug(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
    }
}
