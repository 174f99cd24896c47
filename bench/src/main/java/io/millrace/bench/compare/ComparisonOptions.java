package io.millrace.bench.compare;

import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Set;
import java.util.TreeSet;

/** The command line of {@code bin/millrace bench}, as {@link BrokerComparison} describes it. */
final class ComparisonOptions {

    static final String USAGE = "Usage: bench [--scale S] [--quick] [--runs N] [--no-warmup] [--warmup-rounds N]"
        + " [--jfr] [--perf] [--heap 1g] [--out DIR] [--data-dir DIR] [--scenarios 1,2,...] [--audit-pair]"
        + " [--kafka-socket-buffers BYTES]";

    private double scale = 1;
    private int runs = 3;
    private boolean quick;
    private boolean noWarmup;
    /**
     * One by default: after the short round alone, the first measured run of Millrace's tuned producer ran at
     * 2.4-4.2 M records/s in nine invocations, after a full-scale round at 5.2-5.4 M in three; Kafka's at
     * 1.8-2.5 M either way.
     */
    private int fullWarmupRounds = 1;
    private boolean auditPair;
    private boolean jfr;
    private boolean perf;
    private String heap = "1g";
    private Path out;
    private Path data = Path.of(System.getProperty("java.io.tmpdir"));
    private Double explicitScale;
    private Integer explicitRuns;
    private Set<Integer> scenarios = BrokerComparison.ALL_SCENARIOS;
    private Integer kafkaSocketBuffers;

    /** The comparison {@code args} ask for; null after printing the usage for {@code --help}; exits 2 on misuse. */
    static BrokerComparison parse(String[] args) {
        ComparisonOptions o = new ComparisonOptions();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--quick" -> o.quick = true;
                case "--no-warmup" -> o.noWarmup = true;
                case "--warmup-rounds" -> o.fullWarmupRounds = Integer.parseInt(value(args, ++i, a));
                case "--audit-pair" -> o.auditPair = true;
                case "--jfr" -> o.jfr = true;
                case "--perf" -> o.perf = true;
                case "--scale" -> o.explicitScale = Double.parseDouble(value(args, ++i, a));
                case "--runs" -> o.explicitRuns = Integer.parseInt(value(args, ++i, a));
                case "--heap" -> o.heap = value(args, ++i, a);
                case "--out" -> o.out = Path.of(value(args, ++i, a));
                case "--data-dir" -> o.data = Path.of(value(args, ++i, a));
                case "--scenarios" -> o.scenarios = scenarios(value(args, ++i, a));
                case "--kafka-socket-buffers" -> o.kafkaSocketBuffers = Integer.parseInt(value(args, ++i, a));
                case "-h", "--help" -> {
                    System.out.println(USAGE);
                    return null;
                }
                default -> fail("unknown option " + a);
            }
        }
        return o.comparison();
    }

    private BrokerComparison comparison() {
        if (quick) {
            scale = BrokerComparison.QUICK_SCALE;
            runs = BrokerComparison.QUICK_RUNS;
        }
        if (explicitScale != null) {
            scale = explicitScale;
        }
        if (explicitRuns != null) {
            runs = explicitRuns;
        }
        if (out == null) {
            out = Path.of("bench", "results", LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")));
        }
        BrokerComparison bench = new BrokerComparison(scale, runs, heap, out, data);
        bench.warmup = !quick && !noWarmup;
        bench.flightRecordings = jfr;
        bench.systemProfile = perf;
        bench.scenarios = auditPair ? Set.of(1) : scenarios;
        bench.fullWarmupRounds = fullWarmupRounds;
        bench.auditPairOnly = auditPair;
        bench.kafkaSocketBuffers = kafkaSocketBuffers;
        return bench;
    }

    /** {@code --scenarios 1,5}: scenario numbers from 1 to 7. */
    static Set<Integer> scenarios(String list) {
        Set<Integer> chosen = new TreeSet<>();
        for (String n : list.split(",")) {
            int scenario = Integer.parseInt(n.trim());
            if (!BrokerComparison.ALL_SCENARIOS.contains(scenario)) {
                fail("no scenario " + scenario + "; the scenarios are 1 to 7");
            }
            chosen.add(scenario);
        }
        return chosen;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            fail(option + " needs a value");
        }
        return args[i];
    }

    private static void fail(String message) {
        System.err.println("bench: " + message);
        System.exit(2);
    }
}
