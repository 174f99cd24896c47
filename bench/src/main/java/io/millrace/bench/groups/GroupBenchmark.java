package io.millrace.bench.groups;

import io.millrace.bench.compare.BrokerProcess;
import io.millrace.bench.compare.KafkaBroker;
import io.millrace.bench.compare.MillraceBroker;
import io.millrace.bench.compare.RunStatistics;
import io.millrace.bench.groups.GroupFigures.Figure;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code bin/millrace bench-groups}: consumer groups coordinated by a Millrace broker and by an Apache
 * Kafka broker, started side by side as {@code bin/millrace bench} starts them (each in its own JVM
 * with the same heap, data under one parent directory), with Kafka 4.x's {@code KafkaConsumer} as
 * the client on both, so that only the coordinator differs:
 * <ol>
 *   <li>{@link JoinScenario}: 3 members subscribing at once, until the first and until all have a record;</li>
 *   <li>{@link RebalanceScenario}: a 4th member joining a stable 3, eager and cooperative-sticky;</li>
 *   <li>{@link CommitScenario}: commitSync calls a second, 1 and 12 partitions per call, and 4 members at once,
 *       each with the broker JVM's CPU time per commit.</li>
 * </ol>
 * Both brokers run with {@code group.initial.rebalance.delay.ms=0}: the default (3 s on both) would
 * hold every new group's first rebalance for 3 s. Unless
 * {@code --no-kafka-defaults}, scenario 1 also runs on a third broker, Kafka with its defaults, shown
 * alongside. An unreported round warms the brokers and this JVM first (commits measured for 1 s); then
 * {@code --runs} rounds, Millrace first in odd rounds and last in even ones, every scenario in a
 * group of its own. Prints min / median / max per broker, the Millrace/Kafka ratio of each run pair
 * and whether Millrace's median is no worse; writes the same table with the settings to
 * {@code <out>/results.md}, every value to {@code <out>/results.json} and the brokers' output to
 * {@code <out>/logs/}.
 */
public final class GroupBenchmark {

    static final String MILLRACE = "Millrace";
    static final String KAFKA = "Kafka";
    static final String KAFKA_DEFAULT_DELAY = "Kafka, default 3 s initial delay";
    static final String INITIAL_DELAY = "group.initial.rebalance.delay.ms";
    private static final double WARMUP_COMMIT_SECONDS = 1;

    private final GroupOptions options;
    private final GroupFigures figures;
    private final Map<String, String> bootstrap = new LinkedHashMap<>();
    private final Map<String, BrokerProcess> brokers = new LinkedHashMap<>();
    private final List<Double> loads = new ArrayList<>();

    GroupBenchmark(GroupOptions options) {
        this.options = options;
        this.figures = new GroupFigures(options.kafkaDefaults() ? List.of(MILLRACE, KAFKA, KAFKA_DEFAULT_DELAY)
            : List.of(MILLRACE, KAFKA));
    }

    public static void main(String[] args) throws Exception {
        GroupOptions options;
        try {
            options = GroupOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench-groups: " + e.getMessage());
            System.err.println(GroupOptions.USAGE);
            System.exit(2);
            return;
        }
        if (options == null) {
            System.out.println(GroupOptions.USAGE);
            return;
        }
        GroupBenchmark bench = new GroupBenchmark(options);
        bench.run();
        String report = bench.report();
        System.out.print(report);
        bench.write(report);
        List<String> missing = bench.figures.missing(options.runs());
        if (!missing.isEmpty()) {
            System.err.println("bench-groups: no numbers for " + missing);
            System.exit(1);
        }
        System.exit(0);
    }

    void run() throws Exception {
        Files.createDirectories(options.out().resolve("logs"));
        Path parent = Files.createTempDirectory(options.dataDir().toAbsolutePath(), "millrace-groups-bench-");
        try (MillraceBroker millrace = new MillraceBroker(parent, log("millrace"), options.heap()).set(INITIAL_DELAY, "0");
             KafkaBroker kafka = new KafkaBroker(parent, log("kafka"), options.heap()).set(INITIAL_DELAY, "0");
             KafkaBroker kafkaDefault = options.kafkaDefaults() ? new KafkaBroker(parent, log("kafka-default-delay"),
                 options.heap()) : null) {
            millrace.start();
            prepare(MILLRACE, millrace, millrace.bootstrapServers());
            kafka.start();
            prepare(KAFKA, kafka, kafka.bootstrapServers());
            if (kafkaDefault != null) {
                kafkaDefault.start();
                prepare(KAFKA_DEFAULT_DELAY, kafkaDefault, kafkaDefault.bootstrapServers());
            }
            rounds();
        } finally {
            BrokerProcess.deleteRecursively(parent);
        }
    }

    private Path log(String name) {
        return options.out().resolve("logs").resolve(name + ".log");
    }

    /** The topics of the scenarios {@code side} runs, scenario 1's with data. */
    private void prepare(String side, BrokerProcess broker, String b) throws Exception {
        brokers.put(side, broker);
        bootstrap.put(side, b);
        JoinScenario.prepare(b);
        if (!side.equals(KAFKA_DEFAULT_DELAY)) {
            RebalanceScenario.prepare(b);
            CommitScenario.prepare(b);
        }
        System.err.println("bench-groups: " + side + " broker at " + b);
    }

    private void rounds() throws Exception {
        loads.add(load());
        for (int run = options.warmup() ? 0 : 1; run <= options.runs(); run++) {
            for (String side : order(run, bootstrap.keySet())) {
                System.err.printf(Locale.ROOT, run == 0 ? "bench-groups: warm-up (not reported), %3$s%n"
                    : "bench-groups: run %d of %d, %s%n", run, options.runs(), side);
                round(side, run);
            }
            loads.add(load());
        }
    }

    /** The sides in their order, in odd rounds; reversed in even ones, so none always goes first. */
    public static List<String> order(int run, java.util.Collection<String> sides) {
        List<String> order = new ArrayList<>(sides);
        if (Math.floorMod(run, 2) == 0) {
            java.util.Collections.reverse(order);
        }
        return order;
    }

    private void round(String side, int run) throws Exception {
        String b = bootstrap.get(side);
        int hb = options.heartbeatMs();
        JoinScenario.Result join = JoinScenario.run(b, "join-" + run, hb);
        add(JoinScenario.FIRST, side, join.firstMs(), run);
        add(JoinScenario.ALL, side, join.allMs(), run);
        if (side.equals(KAFKA_DEFAULT_DELAY)) {
            return;
        }
        add(RebalanceScenario.EAGER, side, RebalanceScenario.run(b, "eager-" + run, RebalanceScenario.RANGE, hb), run);
        add(RebalanceScenario.COOPERATIVE, side,
            RebalanceScenario.run(b, "cooperative-" + run, RebalanceScenario.COOPERATIVE_STICKY, hb), run);
        double seconds = run == 0 ? WARMUP_COMMIT_SECONDS : options.commitSeconds();
        commits(CommitScenario.ONE, side, run, () -> CommitScenario.single(b, "commit-1-" + run, 1, seconds, hb));
        commits(CommitScenario.ALL, side, run,
            () -> CommitScenario.single(b, "commit-12-" + run, CommitScenario.PARTITIONS, seconds, hb));
        commits(CommitScenario.PARALLEL, side, run, () -> CommitScenario.parallel(b, "commit-parallel-" + run, seconds, hb));
    }

    /**
     * A commit rate, and the CPU the broker's JVM (Millrace's with its ZooKeeper) used per commit, the
     * members' joining included: what a commit costs the broker, beside how long its client waited.
     */
    private void commits(Figure figure, String side, int run, Callable<CommitScenario.Rate> scenario) throws Exception {
        BrokerProcess broker = brokers.get(side);
        double before = broker.cpuMillis();
        CommitScenario.Rate rate = scenario.call();
        add(figure, side, rate.perSecond(), run);
        add(CommitScenario.cpuFigure(figure), side, (broker.cpuMillis() - before) * 1000 / rate.commits(), run);
    }

    private void add(Figure figure, String side, double value, int run) {
        System.err.printf(Locale.ROOT, "bench-groups:   %s: %s %s%n", figure.name(), RunStatistics.format(value), figure.unit());
        if (run > 0) {
            figures.add(figure, side, value);
        }
    }

    private static double load() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    String report() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream p = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        p.printf(Locale.ROOT, "%nKafka %s's KafkaConsumer on both brokers (group.protocol=classic); %d runs%s, alternating the"
            + " order; heartbeat.interval.ms=%d; commits measured for %s s each; both brokers with %s=0%s; heap %s;"
            + " load average %s; min / **median** / max%n%n", org.apache.kafka.common.utils.AppInfoParser.getVersion(),
            options.runs(), options.warmup() ? " after a warm-up round" : "", options.heartbeatMs(),
            RunStatistics.format(options.commitSeconds()), INITIAL_DELAY,
            options.kafkaDefaults() ? " (and a third broker, Kafka with its defaults, for scenario 1)" : "", options.heap(),
            loadsText());
        figures.table(p);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private String loadsText() {
        double[] s = RunStatistics.minMedianMax(loads);
        return RunStatistics.format(s[0]) + " to " + RunStatistics.format(s[2]) + " (1-minute, between rounds)";
    }

    void write(String report) throws IOException {
        Files.writeString(options.out().resolve("results.md"), report);
        Files.writeString(options.out().resolve("results.json"), figures.json());
        System.out.println();
        System.out.println("Results: " + options.out().resolve("results.md"));
    }
}
