package io.millrace.bench.compare;

import io.millrace.bench.compare.Scenarios.ConsumerMode;
import io.millrace.bench.compare.Scenarios.Measurement;
import io.millrace.bench.compare.Scenarios.ProducerMode;
import io.millrace.bench.compare.report.HtmlReport;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@code bin/millrace bench [--scale S] [--quick]}: the paper's experiments on a Millrace broker and
 * on an Apache Kafka broker, each in its own JVM with the same heap and its data on the same
 * filesystem, with both Millrace's clients and Kafka's Java clients: the 2x2 matrix of
 * {@link Cell}s, so that brokers and clients are compared separately. Round after round the
 * brokers take turns going first (Millrace in odd rounds, Kafka in even ones) and so do the
 * clients on each broker. Prints a Markdown table of every figure as min / median / max over the
 * runs, with the ratios of each run pair ({@link Ratio}), and writes the same as JSON to
 * {@code <out>/results.json}.
 *
 * <p>Each broker serves every round: started once and warmed by an unreported round 0 with both
 * clients. A fresh broker per round made whichever client met it first pay for its warm-up, which
 * moved single figures by 2-3x; every scenario writes to topics of its own instead.
 *
 * <p>Options: {@code --scale S} multiplies every message count (default 1); {@code --quick} is a
 * smoke run (scale 0.02, 2 runs each, no warm-up round) that checks every scenario produces
 * numbers; {@code --runs N} (default 3); {@code --heap SIZE} (default 1g); {@code --out DIR}
 * (default {@code bench/results/<timestamp>}); {@code --data-dir DIR}, the parent of the brokers'
 * data (default {@code java.io.tmpdir}); {@code --no-warmup}; {@code --warmup-rounds N}, N more unreported
 * rounds at full scale after the short one (default 1: the code a short round leaves compiled is not yet
 * what a full run settles into, and the machine's first rounds of a fresh data directory can run in a
 * slower regime); {@code --audit-pair}, only scenario 1 with Millrace's client on Millrace's broker,
 * plain and audited, for the audit's cost alone; {@code --jfr}, flight recordings of
 * both broker JVMs and of this one ({@code logs/*.jfr}), cut into flame graphs of each scenario in
 * each cell under {@code flames/} ({@link ScenarioProfiles}); {@code --perf}, the same of the whole
 * machine, kernel included, from Linux perf ({@link SystemProfile}); {@code --scenarios LIST}, only the
 * scenarios of a comma-separated list of their numbers (default all; 3 and 4 run 1 too, for its
 * maximum and its data); {@code --kafka-socket-buffers BYTES}, Kafka's broker and clients with their
 * socket buffer settings at BYTES (-1: the OS's autotuning, as Millrace's defaults), to tell what a
 * default is worth from what the code is.
 *
 * <p>Scenario 1 also measures Millrace's producer with the audit's producer tier on, on the Millrace
 * broker ({@link AuditedProducerScenario}): each run right next to the plain one with the same
 * settings, the plain one first in odd rounds and the audited one in even ones, reported as a cell of
 * its own with the ratio of each pair ({@link Ratio#AUDIT}).
 */
public final class BrokerComparison {

    static final String MILLRACE = "millrace";
    static final String KAFKA = "kafka";

    /** A record's bytes in the log beyond its value, at most (scenario 4 measures 10 to 70). */
    static final int RECORD_OVERHEAD_BYTES = 70;
    /**
     * Scenario 1's message counts at scale 1: enough for a run of a second or more on the faster
     * stack. With 2M tuned records (0.4-0.6 s for Millrace's) the first measured run still paid for the
     * clients' JVM settling, compilations and a concurrent GC cycle, and set the median on its own;
     * the tuned count is the paper's 10M.
     */
    static final Map<ProducerMode, Long> PRODUCER_COUNTS = Map.of(
        ProducerMode.BATCH_1, 20_000L, ProducerMode.BATCH_50, 1_000_000L, ProducerMode.TUNED, 10_000_000L);
    /**
     * The paper's 10M messages. Half a million took a quarter of a second to read, too short for
     * a client's JIT to settle: the runs of one cell spread by up to 2x.
     */
    static final long CONSUMER_COUNT = 10_000_000L;
    /** Scenario 3: the fixed rate, and how long each rate is held at scale 1. */
    static final double E2E_RATE = 10_000;
    static final double E2E_SECONDS = 5;
    /**
     * Scenario 3 at one rate for every stack: about half of what Kafka's client and broker sustain
     * tuned on this machine, so both carry the same load. At half its own maximum a faster stack
     * carries more messages a second through the same two cores than a slower one, and its tail
     * says as much about that load as about the stack.
     */
    static final double E2E_COMMON_RATE = 400_000;
    /** {@code --quick}: small enough for CI (well under 2 minutes), enough runs for a median. */
    static final double QUICK_SCALE = 0.02;
    static final int QUICK_RUNS = 2;
    /** The warm-up round's message counts, as a fraction of the measured runs'. */
    static final double WARMUP_FRACTION = 0.2;

    /** Scenario 5: records per producer (three of them) per run, at scale 1. */
    static final long SCALING_COUNT_PER_PRODUCER = 500_000L;
    /** Scenario 7: records per producer (three of them) per run and topic layout, at scale 1. */
    static final long REPLICATION_COUNT_PER_PRODUCER = 300_000L;
    /** Scenario 6: each ceiling is the best of this many measurements. */
    static final int CEILING_ATTEMPTS = 3;

    static final String E2E_FIXED = "3. end-to-end at 10,000 msg/s";
    static final String E2E_HALF = "3. end-to-end at half the maximum, tuned producer";
    static final String E2E_COMMON = "3. end-to-end at 400,000 msg/s, tuned producer";
    static final Set<Integer> ALL_SCENARIOS = Set.of(1, 2, 3, 4, 5, 6, 7);

    /** {@code --scenarios}: the numbers of the scenarios to run. */
    Set<Integer> scenarios = ALL_SCENARIOS;
    /** Scenario 1's audited producer, while the matrix runs. */
    private AuditedProducerScenario audited;

    double scale;
    boolean warmup = true;
    /** {@code --warmup-rounds N}: unreported rounds at full scale after the short warm-up round. */
    int fullWarmupRounds;
    /** {@code --audit-pair}: only Millrace's client on Millrace's broker, plain and audited (scenario 1). */
    boolean auditPairOnly;
    /** {@code --kafka-socket-buffers}: Kafka's socket buffer settings, broker and clients; null keeps Kafka's defaults. */
    Integer kafkaSocketBuffers;
    /** {@code --jfr}: flight recordings of the brokers and this JVM, cut into flame graphs per scenario. */
    boolean flightRecordings;
    /** {@code --perf}: the whole machine sampled by Linux perf, kernel included, cut into flame graphs per scenario. */
    boolean systemProfile;
    private ScenarioProfiles profiles;
    final int runs;
    final String heap;
    final Path out;
    final Path dataParent;
    final Map<String, Figure> figures = new LinkedHashMap<>();
    /** Throughput over time of the producer and consumer scenarios, every measured run. */
    final List<Timeline> timelines = new ArrayList<>();
    /** Scenario 6, measured first while nothing else runs: the best of {@link #CEILING_ATTEMPTS} each. */
    final List<MachineCeilings.Ceiling> ceilings = new ArrayList<>();

    /** One run's throughput over time, for the report's charts like the paper's figures 4 and 5. */
    record Timeline(String scenario, Cell cell, int run, ThroughputTimeline timeline) {
    }

    BrokerComparison(double scale, int runs, String heap, Path out, Path dataParent) {
        this.scale = scale;
        this.runs = runs;
        this.heap = heap;
        this.out = out;
        // every broker runs in a directory of its own, so its paths must not be relative
        this.dataParent = dataParent.toAbsolutePath();
    }

    public static void main(String[] args) throws Exception {
        BrokerComparison bench = ComparisonOptions.parse(args);
        if (bench == null) {
            return;
        }
        bench.run();
        bench.report(System.out);
        Path json = bench.writeJson();
        System.out.println();
        System.out.println("Results: " + json);
        try {
            System.out.println("Report:  " + HtmlReport.write(bench.out));
        } catch (IOException e) {
            System.err.println("bench: the HTML report could not be written: " + e);
        }
        List<String> missing = bench.missing();
        if (!missing.isEmpty()) {
            System.err.println("bench: no numbers for " + missing);
            System.exit(1);
        }
    }

    private boolean selected(int... any) {
        return Arrays.stream(any).anyMatch(scenarios::contains);
    }

    /** Scenario 1, also run for 3 (the half-maximum rate is the tuned producer's) and 4 (what 1 wrote). */
    private boolean producersRun() {
        return selected(1, 3, 4);
    }

    /** Twice what {@code records} producer records take in a log, and at least 64 MiB: room for the broker's other writes. */
    static long primeBytes(long records) {
        return Math.max(64L << 20, 2 * records * (Scenarios.MESSAGE_BYTES + RECORD_OVERHEAD_BYTES));
    }

    long count(long atScaleOne) {
        return Math.max(100, Math.round(atScaleOne * scale));
    }

    void run() throws Exception {
        Files.createDirectories(out.resolve("logs"));
        Path parent = Files.createTempDirectory(dataParent, "millrace-bench-");
        // the brokers' own hooks stop them and delete their directories; this one their parent
        Thread cleanup = new Thread(() -> BrokerProcess.deleteRecursively(parent), "bench-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup);
        try {
            if (selected(6)) {
                measureCeilings(parent);
            }
            if (selected(1, 2, 3, 4)) {
                runMatrix(parent);
            }
            try (ClusterScenarios clusters = new ClusterScenarios(this, parent)) {
                if (selected(5)) {
                    clusters.runScaling();
                }
                if (selected(7)) {
                    clusters.runReplication();
                }
            }
        } finally {
            BrokerProcess.deleteRecursively(parent);
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
    }

    /** Scenario 6. A ceiling is a maximum, and a single page-cache write varies by 2-3x here. */
    private void measureCeilings(Path parent) throws Exception {
        System.err.println("bench: 6. the machine's ceilings");
        Map<String, Double> best = new LinkedHashMap<>();
        for (int attempt = 0; attempt < CEILING_ATTEMPTS; attempt++) {
            for (MachineCeilings.Ceiling c : MachineCeilings.measure(parent, scale)) {
                best.merge(c.name(), c.bytesPerSecond(), Math::max);
            }
        }
        best.forEach((name, bytesPerSecond) -> ceilings.add(new MachineCeilings.Ceiling(name, bytesPerSecond)));
    }

    /** Scenarios 1 to 4 on one broker of each kind with both clients. */
    private void runMatrix(Path parent) throws Exception {
        Map<String, Path> recordings = Map.of(MILLRACE, out.resolve("logs").resolve("millrace.jfr"),
            KAFKA, out.resolve("logs").resolve("kafka.jfr"));
        if (flightRecordings || systemProfile) {
            profiles = new ScenarioProfiles(out, flightRecordings, systemProfile);
            profiles.start();
        }
        try {
            runMatrix(parent, recordings);
        } finally {
            if (profiles != null) {
                System.err.println("bench: flame graphs: " + profiles.render(recordings));
            }
        }
    }

    private void runMatrix(Path parent, Map<String, Path> recordings) throws Exception {
        try (BrokerProcess millrace = new MillraceBroker(parent, out.resolve("logs").resolve("millrace.log"), heap);
             BrokerProcess kafka = new KafkaBroker(parent, out.resolve("logs").resolve("kafka.log"), heap)) {
            if (flightRecordings) {
                millrace.recordFlight(recordings.get(MILLRACE));
                kafka.recordFlight(recordings.get(KAFKA));
            }
            if (systemProfile) {
                millrace.addJvmOptions(SystemProfile.JVM_OPTIONS);
                kafka.addJvmOptions(SystemProfile.JVM_OPTIONS);
            }
            String deleteDelay = Long.toString(Scenarios.DELETE_DELAY_MS);
            ((MillraceBroker) millrace).set("log.segment.delete.delay.ms", deleteDelay);
            ((KafkaBroker) kafka).set("log.segment.delete.delay.ms", deleteDelay);
            if (kafkaSocketBuffers != null) {
                String bytes = kafkaSocketBuffers.toString();
                ((KafkaBroker) kafka).set("socket.send.buffer.bytes", bytes).set("socket.receive.buffer.bytes", bytes);
                Scenarios.setKafkaClientSocketBuffers(kafkaSocketBuffers);
            }
            millrace.start();
            kafka.start();
            if (systemProfile) {
                profiles.system().name(millrace.pid(), "Millrace broker JVM (and its ZooKeeper)");
                profiles.system().name(kafka.pid(), "Kafka broker JVM");
            }
            Map<String, BrokerProcess> brokers = Map.of(MILLRACE, millrace, KAFKA, kafka);
            if (selected(2)) {
                for (BrokerProcess broker : brokers.values()) {
                    fillConsumerTopic(broker.bootstrapServers());
                }
            }
            if (producersRun()) {
                audited = AuditedProducerScenario.start((MillraceBroker) millrace);
            }
            try {
                runRounds(brokers);
            } finally {
                if (audited != null) {
                    audited.close();
                    audited = null;
                }
            }
        }
    }

    private void runRounds(Map<String, BrokerProcess> brokers) throws Exception {
        int first = warmup ? -fullWarmupRounds : 1;
        for (int run = first; run <= runs; run++) {
            for (String side : RunOrder.brokers(run)) {
                for (BenchClient client : RunOrder.clients(run)) {
                    Cell cell = Cell.of(client, side);
                    if (auditPairOnly && cell != Cell.MILLRACE_ON_MILLRACE) {
                        continue;
                    }
                    System.err.printf(run <= 0 ? "bench: warm-up (not reported), %3$s%n" : "bench: run %d of %d, %s%n",
                        run, runs, cell.label());
                    runRound(cell, brokers.get(side), run, run == first && run <= 0);
                }
            }
        }
    }

    /** The consumer scenarios' topic, written once per broker by the same (Kafka's) producer. */
    private void fillConsumerTopic(String bootstrap) throws Exception {
        Scenarios.createTopic(bootstrap, CONSUMER_TOPIC);
        Scenarios.produce(bootstrap, CONSUMER_TOPIC, ProducerMode.FILL, count(CONSUMER_COUNT));
    }

    static final String CONSUMER_TOPIC = "consume";

    /** A round of {@code cell}; rounds up to 0 warm up unreported, the first of them {@code short} (a fifth of the counts). */
    private void runRound(Cell cell, BrokerProcess broker, int run, boolean shortRound) throws Exception {
        double measuredScale = scale;
        if (shortRound) {
            scale = scale * WARMUP_FRACTION;
        }
        try {
            runCell(cell, broker, run, run <= 0);
        } finally {
            scale = measuredScale;
        }
    }

    private void runCell(Cell cell, BrokerProcess broker, int run, boolean warmingUp) throws Exception {
        String bootstrap = broker.bootstrapServers();
        BenchClient client = cell.client;
        double maximum = Double.NaN;
        for (ProducerMode mode : producersRun() ? List.of(ProducerMode.BATCH_1, ProducerMode.BATCH_50, ProducerMode.TUNED)
                : List.<ProducerMode>of()) {
            for (Cell producer : RunOrder.producers(cell, run)) {
                Measurement m = produce(producer, broker, mode, run, warmingUp);
                if (producer == cell && mode == ProducerMode.TUNED) {
                    maximum = m.recordsPerSecond();
                }
            }
        }
        if (selected(2)) {
            consume(cell, broker, run, warmingUp);
        }
        if (selected(3)) {
            endToEnd(cell, broker, E2E_FIXED, E2E_RATE, Map.of(), run, warmingUp);
            endToEnd(cell, broker, E2E_COMMON, E2E_COMMON_RATE, ProducerMode.TUNED.config, run, warmingUp);
            endToEnd(cell, broker, E2E_HALF, maximum / 2, ProducerMode.TUNED.config, run, warmingUp);
        }
    }

    /** Scenario 1 in one mode with {@code cell}'s producer, and 4, the storage it took (not again when audited). */
    private Measurement produce(Cell cell, BrokerProcess broker, ProducerMode mode, int run, boolean warmingUp)
            throws Exception {
        String bootstrap = broker.bootstrapServers();
        String scenario = "1. " + mode.label;
        String topic = "produce-" + mode.name().toLowerCase(Locale.ROOT).replace('_', '-') + "-" + cell.clientName() + "-" + run;
        Scenarios.createTopic(bootstrap, topic);
        long n = count(PRODUCER_COUNTS.get(mode));
        // Every cell starts alike: no dirty pages of the cells before it to write back during this one,
        // and memory for its log that the machine has just used (see PageCache).
        PageCache.writeBack();
        PageCache.prime(broker.logDir().getParent(), primeBytes(n));
        Instant from = Instant.now();
        Measurement m;
        try (GcPauses clientPauses = new GcPauses()) {
            m = measured(scenario, cell, broker, warmingUp, cell.audited
                ? () -> audited.produce(topic, mode, n) : () -> cell.client.produce(bootstrap, topic, mode, n));
            add(scenario, "records/s", true, cell, m.recordsPerSecond(), warmingUp);
            add(scenario, "clients' longest GC pause ms", false, cell, clientPauses.longestMillis(), warmingUp);
        }
        add(scenario, "broker's longest GC pause ms", false, cell, broker.gcPauses(from, Instant.now()).longestMillis(),
            warmingUp);
        if (m.timeline() != null) {
            // a short run's rate hides whether it stopped for a while or ran slowly throughout
            add(scenario, "longest stall ms", false, cell, Stalls.longestMillis(m.timeline()), warmingUp);
        }
        timeline(scenario, cell, run, m, warmingUp);
        add(scenario, "MB/s", true, cell, m.megabytesPerSecond(), warmingUp);
        add(scenario, "records/request", true, cell, m.recordsPerRequest(), warmingUp);
        add(scenario, "% of the run send() waited for buffer memory", false, cell, 100 * m.sendBlockedShare(), warmingUp);
        if (!cell.audited) {
            add("4. storage after " + mode.label, "bytes/message beyond payload", false, cell,
                Scenarios.storageOverhead(broker.logDir(), topic, n), warmingUp);
        }
        Scenarios.deleteTopic(bootstrap, topic, broker.logDir());
        System.err.printf("bench:   %s%s: %.0f records/s (%.1f records/request, send() waited %.0f%%)%n", mode.label,
            cell.audited ? ", audited" : "", m.recordsPerSecond(), m.recordsPerRequest(), 100 * m.sendBlockedShare());
        return m;
    }

    /** Scenario 2, both consumer modes. */
    private void consume(Cell cell, BrokerProcess broker, int run, boolean warmingUp) throws Exception {
        String bootstrap = broker.bootstrapServers();
        BenchClient client = cell.client;
        long n = count(CONSUMER_COUNT);
        for (ConsumerMode mode : ConsumerMode.values()) {
            Measurement m = measured("2. " + mode.label, cell, broker, warmingUp,
                () -> client.consume(bootstrap, CONSUMER_TOPIC, mode, n));
            add("2. " + mode.label, "records/s", true, cell, m.recordsPerSecond(), warmingUp);
            timeline("2. " + mode.label, cell, run, m, warmingUp);
            add("2. " + mode.label, "MB/s", true, cell, m.megabytesPerSecond(), warmingUp);
            if (client == BenchClient.KAFKA) { // Millrace's PartitionReader keeps no fetch statistics
                add("2. " + mode.label, "records/fetch", true, cell, m.recordsPerRequest(), warmingUp);
            }
            System.err.printf("bench:   %s: %.0f records/s%n", mode.label, m.recordsPerSecond());
        }
    }

    /** Scenario 3 at one rate; the producer runs with its defaults plus {@code producerSettings}. */
    private void endToEnd(Cell cell, BrokerProcess broker, String scenario, double rate, Map<String, String> producerSettings,
                          int run, boolean warmingUp) throws Exception {
        String bootstrap = broker.bootstrapServers();
        String topic = "e2e-" + (scenario.equals(E2E_FIXED) ? "fixed" : scenario.equals(E2E_HALF) ? "half" : "common")
            + "-" + cell.client.name + "-" + run;
        Scenarios.createTopic(bootstrap, topic);
        long n = Math.max(1_000, Math.round(rate * E2E_SECONDS * scale));
        PageCache.writeBack(); // what earlier scenarios wrote is not flushed in the middle of this one
        Instant from = Instant.now();
        EndToEndLatency.Result r = measured(scenario, cell, warmingUp,
            () -> EndToEndLatency.run(cell.client, bootstrap, topic, rate, n, producerSettings));
        GcLog.Pauses brokerPauses = broker.gcPauses(from, Instant.now());
        Scenarios.deleteTopic(bootstrap, topic, broker.logDir());
        add(scenario, "rate msg/s", true, cell, rate, warmingUp);
        add(scenario, "p50 ms", false, cell, r.p50(), warmingUp);
        add(scenario, "p99 ms", false, cell, r.p99(), warmingUp);
        add(scenario, "p99.9 ms", false, cell, r.p999(), warmingUp);
        add(scenario, "max ms", false, cell, r.max(), warmingUp);
        r.stages().forEach((stage, value) -> add(scenario, stage, false, cell, value, warmingUp));
        add(scenario, "broker's GC pauses", false, cell, brokerPauses.count(), warmingUp);
        add(scenario, "broker's GC paused ms", false, cell, brokerPauses.totalMillis(), warmingUp);
        add(scenario, "broker's longest GC pause ms", false, cell, brokerPauses.longestMillis(), warmingUp);
        System.err.printf(Locale.ROOT, "bench:   %s (%.0f msg/s): p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms%s%n",
            scenario, rate, r.p50(), r.p99(), r.p999(), r.stealNote());
    }

    /** Runs one scenario in one cell; with {@code --jfr}, a measured run is a window of its flame graphs. */
    private <T> T measured(String scenario, Cell cell, boolean warmingUp, java.util.concurrent.Callable<T> work) throws Exception {
        return profiles == null || warmingUp ? work.call() : profiles.measure(scenario, cell, work);
    }

    /**
     * As {@link #measured(String, Cell, boolean, java.util.concurrent.Callable)}, recording the CPU time
     * the broker's JVM and this one (the clients) used in the run, per million records.
     */
    private Measurement measured(String scenario, Cell cell, BrokerProcess broker, boolean warmingUp,
                                 java.util.concurrent.Callable<Measurement> work) throws Exception {
        double brokerBefore = broker.cpuMillis();
        double clientsBefore = CpuTime.ofThisJvm();
        Measurement m = measured(scenario, cell, warmingUp, work);
        double perMillion = 1e6 / m.records();
        add(scenario, "broker CPU ms per 1M records", false, cell, (broker.cpuMillis() - brokerBefore) * perMillion, warmingUp);
        add(scenario, "client CPU ms per 1M records", false, cell, (CpuTime.ofThisJvm() - clientsBefore) * perMillion,
            warmingUp);
        return m;
    }

    private void timeline(String scenario, Cell cell, int run, Measurement m, boolean warmingUp) {
        if (!warmingUp && m.timeline() != null) {
            timelines.add(new Timeline(scenario, cell, run, m.timeline()));
        }
    }

    private void add(String scenario, String metric, boolean higherIsBetter, Cell cell, double value, boolean warmingUp) {
        if (!warmingUp) {
            add(scenario, metric, higherIsBetter, cell, value);
        }
    }

    void add(String scenario, String metric, boolean higherIsBetter, Cell cell, double value) {
        figures.computeIfAbsent(scenario + "|" + metric, k -> new Figure(scenario, metric, higherIsBetter)).add(cell, value);
    }

    /**
     * The figures by scenario number and name, each scenario's metrics in the order they were first
     * measured: a metric only one client reports is first seen late in a round.
     */
    List<Figure> inScenarioOrder() {
        List<Figure> sorted = new ArrayList<>(figures.values());
        sorted.sort(java.util.Comparator.comparing(f -> f.scenario)); // stable: insertion order within a scenario
        return sorted;
    }

    /** The figures lacking a finite value for some run of a cell that reported it. */
    List<String> missing() {
        List<String> missing = new ArrayList<>(figures.values().stream().filter(f -> !f.complete(runs))
            .map(f -> f.scenario + " " + f.metric).toList());
        if (figures.isEmpty()) {
            missing.add("every scenario");
        }
        return missing;
    }

    /** The Markdown table of every figure and the ceilings ({@link ResultsTable}). */
    void report(PrintStream p) {
        ResultsTable.print(this, p);
    }

    Path writeJson() throws IOException {
        Path file = out.resolve("results.json");
        ResultsJson.write(this, file);
        return file;
    }
}
