package io.millrace.bench.curves;

import io.millrace.bench.compare.BrokerProcess;
import io.millrace.bench.compare.KafkaBroker;
import io.millrace.bench.compare.MillraceBroker;
import io.millrace.bench.compare.RunStatistics;
import io.millrace.bench.groups.GroupBenchmark;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/millrace bench-curves}: cost curves of a Millrace broker beside an Apache Kafka broker,
 * started as {@code bin/millrace bench} and {@code bench-groups} start them (each in a JVM of its own
 * with the same heap, data under one parent directory, both brokers' defaults), with Kafka's Java
 * clients driving both so that only the broker differs:
 * <ol type="a">
 *   <li>produce throughput, broker memory and topic creation against the partitions of one topic;</li>
 *   <li>produce throughput against concurrent producers on one topic;</li>
 *   <li>broker memory and one producer's throughput against idle connections held open;</li>
 *   <li>restart time after SIGKILL against the data and segments on disk ({@link RestartCurve}).</li>
 * </ol>
 * An unreported round at a fifth of the records warms both brokers and this JVM (not under
 * {@code --quick}); then {@code --runs} rounds of a) to c), Millrace first in odd rounds and last in
 * even ones, then d), whose steps fill the brokers' topics in turn and crash each broker once per run.
 * Writes {@code results.md}, {@code results.json}, {@code report.html} (one chart per figure and curve)
 * and the brokers' output ({@code logs/}) under {@code --out}.
 */
public final class CurveBenchmark {

    /** Room the restart curve leaves on the data's filesystem beyond both brokers' copies. */
    private static final long DISK_MARGIN = 3_000_000_000L;
    private static final double DISK_OVERHEAD = 1.15;
    private static final long MIN_RESTART_BYTES = 20_000_000L;

    private final CurveOptions options;
    final CurveResults results = new CurveResults();
    private final Map<String, String> facts = new LinkedHashMap<>();
    private final List<Double> loads = new ArrayList<>();
    private final Map<String, BrokerProcess> brokers = new LinkedHashMap<>();

    CurveBenchmark(CurveOptions options) {
        this.options = options;
    }

    public static void main(String[] args) throws Exception {
        CurveOptions options;
        try {
            options = CurveOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench-curves: " + e.getMessage());
            System.err.println(CurveOptions.USAGE);
            System.exit(2);
            return;
        }
        if (options == null) {
            System.out.println(CurveOptions.USAGE);
            return;
        }
        CurveBenchmark bench = new CurveBenchmark(options);
        bench.run();
        System.out.print(bench.write());
        List<String> missing = bench.results.missing(options.runs());
        if (!missing.isEmpty()) {
            System.err.println("bench-curves: no numbers for " + missing);
            System.exit(1);
        }
        System.exit(0);
    }

    void run() throws Exception {
        Files.createDirectories(options.out().resolve("logs"));
        Path parent = Files.createTempDirectory(options.dataDir().toAbsolutePath(), "millrace-curves-bench-");
        long started = System.nanoTime();
        loads.add(load());
        try {
            if (options.runs('a') || options.runs('b') || options.runs('c')) {
                try (MillraceBroker millrace = new MillraceBroker(parent, log("millrace"), options.heap());
                     KafkaBroker kafka = new KafkaBroker(parent, log("kafka"), options.heap())) {
                    start(millrace, kafka);
                    loadCurves();
                }
            }
            if (options.runs('d')) {
                restartCurve(parent);
            }
        } finally {
            BrokerProcess.deleteRecursively(parent);
        }
        facts(started);
    }

    private void start(MillraceBroker millrace, KafkaBroker kafka) throws Exception {
        brokers.clear();
        millrace.start();
        brokers.put(CurveResults.MILLRACE, millrace);
        kafka.start();
        brokers.put(CurveResults.KAFKA, kafka);
    }

    private Path log(String name) {
        return options.out().resolve("logs").resolve(name + ".log");
    }

    private void loadCurves() throws Exception {
        if (options.warmup()) {
            LoadCurves warmup = new LoadCurves(results, Math.max(1, options.records() / 5), options);
            for (String side : brokers.keySet()) {
                System.err.println("bench-curves: warm-up (not reported), " + side);
                warmup.round(side, brokers.get(side), bootstrap(side), 0, false);
            }
        }
        LoadCurves curves = new LoadCurves(results, options.records(), options);
        for (int run = 1; run <= options.runs(); run++) {
            for (String side : GroupBenchmark.order(run, brokers.keySet())) {
                System.err.printf(Locale.ROOT, "bench-curves: run %d of %d, %s%n", run, options.runs(), side);
                curves.round(side, brokers.get(side), bootstrap(side), run, true);
            }
            loads.add(load());
        }
    }

    /**
     * On a pair of brokers of their own, both with {@code log.segment.bytes} set for the segments asked
     * for, beside the topic's own {@code segment.bytes}: after a crash, Millrace's broker appends with its
     * own defaults until it has registered again (it waits for its previous session to expire first), so
     * with the topic's setting alone the records written in that window went into one segment past the
     * topic's size, and the curve would not have compared the same segment counts.
     */
    private void restartCurve(Path parent) throws Exception {
        long bytes = restartBytes(parent);
        if (bytes < MIN_RESTART_BYTES) {
            results.note("The restart curve did not run: too little free space on the data's filesystem.");
            return;
        }
        RestartCurve curve = new RestartCurve(results, bytes, options.restartSegments(), options.quick());
        String segmentBytes = Integer.toString(curve.segmentBytes());
        try (MillraceBroker millrace = new MillraceBroker(parent, log("millrace-restart"), options.heap())
                 .set(RestartCurve.SEGMENT_BYTES, segmentBytes);
             KafkaBroker kafka = new KafkaBroker(parent, log("kafka-restart"), options.heap())
                 .set(RestartCurve.SEGMENT_BYTES, segmentBytes)) {
            start(millrace, kafka);
            restartSteps(curve);
        }
    }

    private void restartSteps(RestartCurve curve) throws Exception {
        for (String side : brokers.keySet()) {
            curve.prepare(bootstrap(side));
        }
        for (RestartCurve.Step step : curve.steps()) {
            for (String side : brokers.keySet()) {
                curve.fill(side, bootstrap(side), step);
            }
            for (int run = 1; run <= options.runs(); run++) {
                for (String side : GroupBenchmark.order(run, brokers.keySet())) {
                    curve.crash(side, brokers.get(side), bootstrap(side), step);
                }
            }
            loads.add(load());
        }
    }

    private String bootstrap(String side) {
        BrokerProcess b = brokers.get(side);
        return b instanceof MillraceBroker m ? m.bootstrapServers() : ((KafkaBroker) b).bootstrapServers();
    }

    /**
     * The restart curve's full size, scaled down when the data's filesystem cannot hold both brokers'
     * copies with room to spare, with a note that says so.
     */
    private long restartBytes(Path parent) throws IOException {
        long usable = Files.getFileStore(parent).getUsableSpace();
        long wanted = options.restartBytes();
        long fits = fitting(wanted, usable);
        if (fits < wanted) {
            results.note(String.format(Locale.ROOT, "The restart curve was scaled down from %s to %s: the data's filesystem"
                + " had %s free, and both brokers keep a copy.", RestartCurve.size(wanted), RestartCurve.size(fits),
                RestartCurve.size(usable)));
        }
        return fits;
    }

    /** {@code wanted}, or the largest size both brokers' copies fit in {@code usable} with the margin. */
    static long fitting(long wanted, long usable) {
        long room = (long) ((usable - DISK_MARGIN) / (2 * DISK_OVERHEAD));
        return Math.max(0, Math.min(wanted, room));
    }

    private static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private void facts(long started) {
        double[] l = RunStatistics.minMedianMax(loads);
        facts.put("Date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        facts.put("Machine", Runtime.getRuntime().availableProcessors() + " processors, " + System.getProperty("os.name")
            + " " + System.getProperty("os.version") + ", " + System.getProperty("java.vm.name") + " "
            + System.getProperty("java.version"));
        facts.put("Clients", "Apache Kafka Java clients " + org.apache.kafka.common.utils.AppInfoParser.getVersion()
            + " on both brokers");
        facts.put("Runs", options.runs() + (options.warmup() ? " after a warm-up round" : ", no warm-up")
            + "; Millrace first in odd runs, Kafka in even ones");
        facts.put("Records per throughput point", String.format(Locale.ROOT, "%,d of %d bytes, acks=1", options.records(),
            ProduceLoad.VALUE_BYTES));
        facts.put("Heap per broker", options.heap());
        facts.put("Load average (1 minute, between rounds)", RunStatistics.format(l[0]) + " to " + RunStatistics.format(l[2]));
        facts.put("Duration", String.format(Locale.ROOT, "%.1f min", (System.nanoTime() - started) / 60e9));
    }

    /** Writes results.md, results.json and report.html; returns results.md's text. */
    String write() throws IOException {
        Path out = options.out();
        Files.createDirectories(out);
        String md = CurveMarkdown.render(results, facts);
        Files.writeString(out.resolve("results.md"), md);
        Files.writeString(out.resolve("results.json"), CurveJson.render(results, facts));
        Files.writeString(out.resolve("report.html"), CurvePage.render(results, facts));
        System.err.println("bench-curves: results in " + out.toAbsolutePath());
        return md;
    }
}
