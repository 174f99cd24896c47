package io.millrace.examples.pipeline;

import io.millrace.audit.AuditConfig;
import io.millrace.audit.tools.AuditReportMain;
import io.millrace.hadoop.state.HourCount;
import io.millrace.hadoop.state.LoadSummary;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code bin/millrace demo}: the paper's whole pipeline on loopback in one JVM. Two live data centres
 * ({@code dc1}, {@code dc2}) and an offline one, each with its ZooKeeper, two brokers and a schema registry;
 * front-end traffic from the event generator (audited Avro events with the event header, times spread over
 * three hours) into both live data centres; the mirror maker copying both into the offline cluster; a Hadoop
 * load of the offline cluster into a local directory in Hive's hourly layout; and the audit report over every
 * tier, whose exit status the demo returns: 0 when every window reconciled at every tier. With
 * {@code --faults} ({@link FaultInjector}) a live broker restarts, the mirror is killed with SIGKILL, a segment
 * it has not copied is deleted and a map task fails, while the traffic flows; the report then names exactly
 * the deleted segment's records as lost, and the status is 1. With {@code --hive} ({@link HiveStageProcess})
 * embedded Hive, in a JVM of its own, then counts the loaded events per topic and hour; a count that is not the
 * load's makes the status 1.
 */
public final class PipelineDemo {

    static final List<String> TOPICS = List.of("page-views", "searches", "service-calls");
    static final int PARTITIONS = 4;
    static final long DEFAULT_EVENTS_PER_DC = 20_000;
    static final Duration TIME_SPREAD = Duration.ofHours(3);

    private final long eventsPerDc;
    private final Path workDir;
    private final PrintStream out;
    /** {@code --keep-running}: after the report, the data centres stay up until the JVM is stopped. */
    private boolean keepRunning;
    /** {@code --faults}: faults while the traffic flows ({@link FaultInjector}); null without. */
    private FaultInjector.Result faults;
    private boolean injectFaults;
    /** {@code --hive}: embedded Hive counts the loaded events per topic and hour ({@link HiveStageProcess}). */
    private boolean hive;

    PipelineDemo(long eventsPerDc, Path workDir, PrintStream out) {
        this.eventsPerDc = eventsPerDc;
        this.workDir = workDir;
        this.out = out;
    }

    public static void main(String[] args) throws Exception {
        long events = DEFAULT_EVENTS_PER_DC;
        Path dir = null;
        boolean keepRunning = false;
        boolean faults = false;
        boolean hive = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--events" -> events = Long.parseLong(value(args, ++i));
                case "--dir" -> dir = Path.of(value(args, ++i));
                case "--keep-running" -> keepRunning = true;
                case "--faults" -> faults = true;
                case "--hive" -> hive = true;
                case "-h", "--help" -> {
                    System.out.println("Usage: demo [--events N per live data centre] [--dir DIR for the loaded data and the "
                        + "report] [--keep-running] [--faults: restart a live broker, kill -9 the mirror, delete a segment it has not "
                        + "copied, fail a map task; the report names the loss and exits 1] [--hive: then embedded Hive counts the loaded "
                        + "events per topic and hour, which must be the load's]");
                    return;
                }
                default -> {
                    System.err.println("demo: unknown option " + args[i]);
                    System.exit(2);
                }
            }
        }
        if (dir == null) {
            dir = Files.createTempDirectory("millrace-demo-");
        }
        PipelineDemo demo = new PipelineDemo(events, dir, System.out);
        demo.keepRunning = keepRunning;
        demo.injectFaults = faults;
        demo.hive = hive;
        System.exit(demo.run().status());
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            System.err.println("demo: " + args[i - 1] + " needs a value");
            System.exit(2);
        }
        return args[i];
    }

    /** What the demo did, stage by stage, and the report's exit status. */
    public record Outcome(long acknowledged, long mirrored, long loaded, Map<String, Long> loadedPerTopic, int status,
                          String report) {
    }

    /** Runs every stage, stops everything, and returns what happened. */
    public Outcome run() throws Exception {
        long startNanos = System.nanoTime();
        try (DataCentre dc1 = DataCentre.live("dc1", 2, 10, 100_000_000);
             DataCentre dc2 = DataCentre.live("dc2", 2, 20, 200_000_000);
             DataCentre offline = DataCentre.offline("offline", 2, 30)) {
            List<DataCentre> live = List.of(dc1, dc2);
            stage(startNanos, "started three data centres, each with ZooKeeper, two brokers and a schema registry");
            for (DataCentre dc : List.of(dc1, dc2, offline)) {
                out.println("        " + dc);
                for (String topic : TOPICS) {
                    dc.cluster().createTopic(topic, PARTITIONS);
                }
                dc.cluster().createTopic(AuditConfig.DEFAULT_TOPIC, 1);
            }
            long acknowledged;
            long mirrored;
            FaultInjector injector = new FaultInjector(live, offline, TOPICS, eventsPerDc, workDir, out,
                what -> stage(startNanos, what));
            if (injectFaults) {
                faults = injector.mirrorThroughFaults();
                acknowledged = faults.acknowledged();
                mirrored = faults.mirrored();
            } else try (MirrorStage mirror = MirrorStage.start(live, offline, TOPICS)) {
                stage(startNanos, "mirror maker copying dc1 and dc2 into offline (" + String.join(", ", TOPICS) + ", "
                    + AuditConfig.DEFAULT_TOPIC + ")");
                acknowledged = sendTraffic(live);
                stage(startNanos, String.format(Locale.ROOT, "front-ends done: %,d events acknowledged by dc1 and dc2",
                    acknowledged));
                mirrored = mirror.awaitCaughtUp();
                stage(startNanos, String.format(Locale.ROOT, "mirror caught up: %,d records in offline", mirrored));
            }
            LoadSummary load = injectFaults ? injector.loadThroughFailedTask(workDir.resolve("load"))
                : LoadStage.run(offline, TOPICS, workDir.resolve("load"));
            Map<String, Long> perTopic = new TreeMap<>();
            for (HourCount hour : load.counts()) {
                perTopic.merge(hour.topic(), hour.records(), Long::sum);
            }
            stage(startNanos, String.format(Locale.ROOT, "loaded %,d events into %d Avro files by event hour under %s "
                + "(%s)", load.records(), load.files(), workDir.resolve("load").resolve("data"), perTopic));
            ByteArrayOutputStream table = new ByteArrayOutputStream();
            Path html = workDir.resolve("audit-report.html");
            int status = AuditReportMain.run(new String[] {"--bootstrap-server", offline.bootstrapServers(),
                "--schema-registry", offline.registryUrl(), "--grace", "0s", "--html", html.toString(), "--json",
                workDir.resolve("audit-report.json").toString()}, new PrintStream(table, true, StandardCharsets.UTF_8),
                out, System.currentTimeMillis());
            String report = table.toString(StandardCharsets.UTF_8);
            out.print(report);
            stage(startNanos, "audit report: " + (status == 0 ? "every closed window reconciled at every tier"
                : "NOT every window reconciled") + "; the page is " + html);
            if (faults != null) {
                stage(startNanos, String.format(Locale.ROOT, "the faults lost the %,d records of the deleted segment of "
                    + "dc1 %s (offsets %d to %d): the report shows them missing from the mirror's read of dc1 (tier live) "
                    + "on, and nothing else", faults.lost().records(), faults.lost().partition(), faults.lost().from(),
                    faults.lost().to() - 1));
            }
            boolean hiveAgrees = HiveStageProcess.run(hive, offline, TOPICS, workDir, load, out, what -> stage(startNanos, what));
            if (keepRunning) {
                KeepRunning.untilStopped(List.of(dc1, dc2, offline), out);
            }
            return new Outcome(acknowledged, mirrored, load.records(), perTopic, hiveAgrees ? status : Math.max(status, 1),
                report);
        }
    }

    /** Both live data centres' front-ends at once, each as three hosts of the event generator. */
    private long sendTraffic(List<DataCentre> live) throws Exception {
        return FrontEnds.send(live, TOPICS, eventsPerDc, out);
    }

    /** What {@code --faults} did; null without it, or before {@link #run}. */
    FaultInjector.Result faults() {
        return faults;
    }

    /** Runs with {@code --faults}. */
    PipelineDemo withFaults() {
        injectFaults = true;
        return this;
    }

    private void stage(long startNanos, String what) {
        out.printf(Locale.ROOT, "[%5.1f s] %s%n", (System.nanoTime() - startNanos) / 1e9, what);
    }
}
