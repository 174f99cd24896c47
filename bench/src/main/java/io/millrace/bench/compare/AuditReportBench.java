package io.millrace.bench.compare;

import io.millrace.audit.AuditConfig;
import io.millrace.audit.AuditPublisher;
import io.millrace.audit.AuditSource;
import io.millrace.audit.LostRangeReport;
import io.millrace.audit.WindowDelta;
import io.millrace.audit.report.AuditEntry;
import io.millrace.audit.report.AuditReader;
import io.millrace.audit.report.AuditReport;
import io.millrace.audit.report.HtmlReport;
import io.millrace.audit.report.Reconciliation;
import io.millrace.schemaregistry.server.SchemaRegistryServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.regex.Pattern;

/**
 * {@code bin/millrace bench-audit-report [--scale S] [--runs N] [--quick]}: how long the audit report takes
 * over a day of audit records. A Millrace broker (and its ZooKeeper) runs in its own JVM, a schema registry
 * on the broker's ZooKeeper in this one. The audit topic is filled, unmeasured, through the real
 * {@link AuditPublisher} with what a day of {@value #TOPICS} × scale topics leaves there: {@value #WINDOWS}
 * windows of 10 minutes, each counted by {@value #HOSTS_PER_DC} front-end hosts in each of two data centres,
 * by the mirror's {@code live} and {@code offline} tiers per data centre in {@value #MIRROR_DELTAS} deltas
 * each (it releases counts per commit), and by the loader. A few windows are short at one tier and a few
 * ranges lost, as on a bad day. Each run then times the report end to end as {@code audit-report} makes
 * it, phase by phase: reading and decoding the topic, the reconciliation, the table, the JSON and the HTML
 * page (each written to a file), after a first run that warms this JVM up; and the whole command,
 * {@code AuditReportMain} with {@code --json} and {@code --html}, in a JVM of its own, as a cron job runs
 * it. Prints min / median / max over the runs.
 */
public final class AuditReportBench {

    static final int TOPICS = 100;
    static final int WINDOWS = 144;
    static final long WINDOW_MS = 600_000;
    static final int HOSTS_PER_DC = 3;
    static final int MIRROR_DELTAS = 2;
    static final List<String> DATA_CENTRES = List.of("dc1", "dc2");
    static final double QUICK_SCALE = 0.1;
    static final int QUICK_RUNS = 1;
    static final long GRACE_MS = 30 * 60_000L;
    static final List<String> PHASES = List.of("read and decode the audit topic", "reconcile", "table", "JSON",
        "HTML page", "end to end");

    private final int topics;
    private final int runs;
    private final long dayStart;
    private final Map<String, List<Double>> seconds = new LinkedHashMap<>();
    /** The seconds of {@code bin/millrace audit-report --json --html} each in a JVM of its own, start-up included. */
    private final List<Double> command = new ArrayList<>();
    private long records;
    private int rows;
    private long jsonBytes;
    private long htmlBytes;

    AuditReportBench(double scale, int runs) {
        this.topics = Math.max(1, (int) Math.round(TOPICS * scale));
        this.runs = runs;
        long day = WINDOWS * WINDOW_MS;
        this.dayStart = System.currentTimeMillis() / day * day - day;
        PHASES.forEach(p -> seconds.put(p, new ArrayList<>()));
    }

    public static void main(String[] args) throws Exception {
        RunOptions options = RunOptions.parse(args, "bench-audit-report [--scale S] [--runs N] [--quick]",
            3, QUICK_SCALE, QUICK_RUNS);
        AuditReportBench bench = new AuditReportBench(options.scale(), options.runs());
        bench.run();
        bench.report(System.out);
        System.exit(0);
    }

    void run() throws Exception {
        Path parent = Files.createTempDirectory("millrace-audit-bench-");
        try (MillraceBroker broker = new MillraceBroker(parent, parent.resolve("broker.log"), "1g")) {
            broker.start();
            try (SchemaRegistryServer registry = SchemaRegistryServer.startLocal(broker.zookeeperConnect())) {
                String url = registry.urls().get(0);
                long start = System.nanoTime();
                long published = fill(broker.bootstrapServers(), url);
                System.err.printf(Locale.ROOT, "bench-audit-report: %,d audit records of %d topics published in %.1f s%n",
                    published, topics, (System.nanoTime() - start) / 1e9);
                for (int run = 1; run <= runs; run++) {
                    command.add(command(broker.bootstrapServers(), url, parent));
                }
                for (int run = 0; run <= runs; run++) {
                    measure(broker.bootstrapServers(), url, parent, run);
                }
            }
        } finally {
            BrokerProcess.deleteRecursively(parent);
        }
    }

    /** Publishes the day's audit records, one publisher per topic; returns how many. */
    private long fill(String bootstrap, String registryUrl) {
        Random random = new Random(20_270_115L);
        long published = 0;
        for (int t = 0; t < topics; t++) {
            Map<AuditSource, List<WindowDelta>> deltas = new HashMap<>();
            String topic = String.format(Locale.ROOT, "events-%03d", t);
            for (int w = 0; w < WINDOWS; w++) {
                window(deltas, topic, dayStart + w * WINDOW_MS, random);
            }
            try (AuditPublisher publisher = new AuditPublisher(settings(bootstrap, registryUrl))) {
                deltas.forEach(publisher::publish);
                if (t % 40 == 7) {
                    publisher.lostRange(new AuditSource("live", "dc1", "mirror-1", "mirror"),
                        new LostRangeReport(topic, t % 8, 1_000_000L * t, 1_000_000L * t + 499));
                    published++;
                }
            }
            published += deltas.values().stream().mapToLong(List::size).sum();
        }
        return published;
    }

    /** One window of one topic at every tier: a busier day-time, and now and then a short tier. */
    private static void window(Map<AuditSource, List<WindowDelta>> deltas, String topic, long start, Random random) {
        double daylight = 1 + 0.6 * Math.sin(2 * Math.PI * (start % (WINDOWS * WINDOW_MS)) / (WINDOWS * WINDOW_MS));
        long all = 0;
        for (String dc : DATA_CENTRES) {
            long produced = 0;
            for (int h = 0; h < HOSTS_PER_DC; h++) {
                long count = Math.round((2_000 + random.nextInt(1_000)) * daylight);
                add(deltas, new AuditSource("producer", dc, "frontend-" + dc + "-" + h, "frontend"), topic, start, count);
                produced += count;
            }
            for (String tier : List.of("live", "offline")) {
                long counted = produced - (tier.equals("offline") && random.nextInt(500) == 0 ? random.nextInt(300) : 0);
                for (int d = 0; d < MIRROR_DELTAS; d++) {
                    long part = d < MIRROR_DELTAS - 1 ? counted / MIRROR_DELTAS : counted - counted / MIRROR_DELTAS * d;
                    add(deltas, new AuditSource(tier, dc, "mirror-1", "mirror"), topic, start, part);
                }
            }
            all += produced;
        }
        long loaded = all - (random.nextInt(1_000) == 0 ? random.nextInt(5_000) : 0);
        add(deltas, new AuditSource("hadoop", "offline", "loader-1", "loader"), topic, start, loaded);
    }

    private static void add(Map<AuditSource, List<WindowDelta>> deltas, AuditSource source, String topic, long start,
                            long count) {
        deltas.computeIfAbsent(source, s -> new ArrayList<>()).add(new WindowDelta(topic, start, start + WINDOW_MS, count,
            count * 200, 0, 0, 0, 40, 250, 900));
    }

    private static Map<String, Object> settings(String bootstrap, String registryUrl) {
        Map<String, Object> settings = new HashMap<>();
        settings.put("bootstrap.servers", bootstrap);
        settings.put("schema.registry.url", registryUrl);
        settings.put(AuditConfig.AUDIT_TIER_CONFIG, "producer");
        settings.put(AuditConfig.AUDIT_CLUSTER_CONFIG, "dc1");
        settings.put(AuditConfig.AUDIT_APPLICATION_CONFIG, "bench-audit-report");
        settings.put(AuditConfig.AUDIT_MAX_PENDING_RECORDS_CONFIG, 1_000_000);
        settings.put(AuditConfig.AUDIT_CLOSE_TIMEOUT_MS_CONFIG, 600_000L);
        return settings;
    }

    /** One report, timed phase by phase; run 0 warms this JVM up and is not kept. */
    private void measure(String bootstrap, String registryUrl, Path dir, int run) throws Exception {
        long now = dayStart + WINDOWS * WINDOW_MS + 15 * 60_000L;
        long[] end = new long[PHASES.size() - 1];   // when each phase but the last ended
        long start = System.nanoTime();
        List<AuditEntry> entries = AuditReader.read(bootstrap, registryUrl, "_audit", Pattern.compile(".*"),
            Long.MIN_VALUE, Long.MAX_VALUE);
        end[0] = System.nanoTime();
        AuditReport report = Reconciliation.reconcile(entries, now, GRACE_MS);
        end[1] = System.nanoTime();
        ByteArrayOutputStream table = new ByteArrayOutputStream();
        report.printTable(new PrintStream(table, false, StandardCharsets.UTF_8));
        end[2] = System.nanoTime();
        Files.writeString(dir.resolve("report.json"), report.toJson(), StandardCharsets.UTF_8);
        end[3] = System.nanoTime();
        Files.writeString(dir.resolve("report.html"), HtmlReport.render(report, now), StandardCharsets.UTF_8);
        end[4] = System.nanoTime();
        records = entries.size();
        rows = report.rows().size();
        jsonBytes = Files.size(dir.resolve("report.json"));
        htmlBytes = Files.size(dir.resolve("report.html"));
        if (run > 0) {
            for (int i = 0; i < end.length; i++) {
                seconds.get(PHASES.get(i)).add((end[i] - (i == 0 ? start : end[i - 1])) / 1e9);
            }
            seconds.get("end to end").add((end[end.length - 1] - start) / 1e9);
        }
        System.err.printf(Locale.ROOT, "bench-audit-report: run %d: %,d records, %,d rows, %.2f s end to end%n", run,
            records, rows, (end[end.length - 1] - start) / 1e9);
    }

    /** {@code audit-report} in a JVM of its own, timed from its start to its exit; returns the seconds. */
    private static double command(String bootstrap, String registryUrl, Path dir) throws Exception {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Dmillrace.log.level=WARN", "-cp", BrokerProcess.absoluteClassPath(), "io.millrace.audit.tools.AuditReportMain",
            "--bootstrap-server", bootstrap, "--schema-registry", registryUrl, "--grace", "30m",
            "--json", dir.resolve("command.json").toString(), "--html", dir.resolve("command.html").toString());
        long start = System.nanoTime();
        Process process = new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectOutput(dir.resolve("command.txt").toFile()).start();
        int status = process.waitFor();
        double seconds = (System.nanoTime() - start) / 1e9;
        if (status != AuditReport.COMPLETE && status != AuditReport.INCOMPLETE) {
            throw new IllegalStateException("audit-report exited " + status + "; see " + dir.resolve("command.txt"));
        }
        System.err.printf(Locale.ROOT, "bench-audit-report: the command in a JVM of its own: %.2f s%n", seconds);
        return seconds;
    }

    void report(PrintStream p) {
        p.printf(Locale.ROOT, "%nA day of audit records: %d topics x %d windows of 10 minutes, %d producer hosts in each "
            + "of %d data centres, the mirror's 2 tiers per data centre in %d deltas each, the loader: %,d records read, "
            + "%,d report rows; JSON %.1f MB, HTML page %.1f MB. Runs: %d; min / **median** / max seconds%n%n",
            topics, WINDOWS, HOSTS_PER_DC, DATA_CENTRES.size(), MIRROR_DELTAS, records, rows, jsonBytes / 1e6,
            htmlBytes / 1e6, runs);
        p.println("| phase | seconds |");
        p.println("| --- | --- |");
        seconds.forEach((phase, s) -> {
            double[] m = RunStatistics.minMedianMax(s);
            p.printf(Locale.ROOT, "| %s | %.2f / **%.2f** / %.2f |%n", phase, m[0], m[1], m[2]);
        });
        double[] own = RunStatistics.minMedianMax(command);
        p.printf(Locale.ROOT, "| bin/millrace audit-report --json --html, a JVM of its own, start-up included | "
            + "%.2f / **%.2f** / %.2f |%n", own[0], own[1], own[2]);
        double[] total = RunStatistics.minMedianMax(seconds.get("end to end"));
        p.printf(Locale.ROOT, "%nRecords read per second, end to end (median): %,.0f%n", records / total[1]);
    }
}
