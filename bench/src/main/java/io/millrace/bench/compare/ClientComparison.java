package io.millrace.bench.compare;

import io.millrace.bench.compare.Scenarios.ConsumerMode;
import io.millrace.bench.compare.Scenarios.Measurement;
import io.millrace.bench.compare.Scenarios.ProducerMode;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code bin/millrace bench-clients [--runs N] [--scale S] [--quick]}: Millrace's producer and
 * consumer against Apache Kafka's {@code KafkaProducer} and {@code KafkaConsumer}, back to back
 * against the same Millrace broker (its own JVM, one for the whole run), with the same settings:
 * the producer at 50 records of 200 B per batch (acks=1, one request in flight) and the consumer
 * with 200 KB fetches. The clients take turns going first, round by round; the number of rounds is
 * rounded up to an even one so that each goes first as often. Prints a Markdown table of
 * min / median / max and the Millrace/Kafka ratio of each pair.
 *
 * <p>One broker serves every round, warmed by an unreported round 0 at full size: what is compared
 * is the clients, so the broker should be in its steady state. A fresh broker per round made
 * whichever client went first pay for the broker's warm-up, which moved single pairs by 2-3x.
 */
public final class ClientComparison {

    static final String MILLRACE = "millrace";
    static final String KAFKA = "kafka";
    static final long PRODUCER_COUNT = 200_000L;
    static final long CONSUMER_COUNT = 500_000L;
    private static final String FILL_TOPIC = "consume";

    private final double scale;
    private final int runs;
    private final Path dataParent;
    private final Map<String, Map<String, List<Double>>> figures = new LinkedHashMap<>();

    ClientComparison(double scale, int runs, Path dataParent) {
        this.scale = scale;
        this.runs = runs + runs % 2;
        this.dataParent = dataParent;
    }

    public static void main(String[] args) throws Exception {
        RunOptions options = RunOptions.parse(args, "bench-clients [--runs N] [--scale S] [--quick]",
            4, BrokerComparison.QUICK_SCALE, BrokerComparison.QUICK_RUNS);
        ClientComparison bench = new ClientComparison(options.scale(), options.runs(), Path.of(System.getProperty("java.io.tmpdir")));
        bench.run();
        bench.report(System.out);
    }

    void run() throws Exception {
        Path parent = Files.createTempDirectory(dataParent, "millrace-client-bench-");
        try {
            try (MillraceBroker broker = new MillraceBroker(parent, parent.resolve("broker.log"), "1g")) {
                broker.start();
                String bootstrap = broker.bootstrapServers();
                Scenarios.createTopic(bootstrap, FILL_TOPIC);
                Scenarios.produce(bootstrap, FILL_TOPIC, ProducerMode.FILL, Math.max(1_000, Math.round(CONSUMER_COUNT * scale)));
                // round 0 warms the broker and this JVM's code for both clients and is not reported
                for (int run = 0; run <= runs; run++) {
                    round(bootstrap, run);
                }
            }
        } finally {
            BrokerProcess.deleteRecursively(parent);
        }
    }

    private void round(String bootstrap, int run) throws Exception {
        long produced = Math.max(1_000, Math.round(PRODUCER_COUNT * scale));
        long consumed = Math.max(1_000, Math.round(CONSUMER_COUNT * scale));
        String fill = FILL_TOPIC;
        for (String side : RunOrder.brokers(run)) {
            String topic = "produce-" + side + "-" + run;
            Scenarios.createTopic(bootstrap, topic);
            Measurement p = side.equals(MILLRACE)
                ? MillraceClients.produce(bootstrap, topic, ProducerMode.BATCH_50, produced)
                : Scenarios.produce(bootstrap, topic, ProducerMode.BATCH_50, produced);
            Measurement c = side.equals(MILLRACE)
                ? MillraceClients.consume(bootstrap, fill, ConsumerMode.FETCH_200K, consumed)
                : Scenarios.consume(bootstrap, fill, ConsumerMode.FETCH_200K, consumed);
            if (run > 0) {
                add("producer batch 50 × 200 B, records/s", side, p.recordsPerSecond());
                add("consumer 200 KB fetches, records/s", side, c.recordsPerSecond());
            }
            System.err.printf(Locale.ROOT, "bench-clients: run %d %s: produce %.0f records/s, consume %.0f records/s%n",
                run, side, p.recordsPerSecond(), c.recordsPerSecond());
        }
    }

    private void add(String figure, String side, double value) {
        figures.computeIfAbsent(figure, f -> {
            Map<String, List<Double>> sides = new LinkedHashMap<>();
            sides.put(MILLRACE, new ArrayList<>());
            sides.put(KAFKA, new ArrayList<>());
            return sides;
        }).get(side).add(value);
    }

    /** Every figure, with the same number of finite values on both sides. */
    Map<String, Map<String, List<Double>>> figures() {
        return figures;
    }

    void report(PrintStream p) {
        p.printf(Locale.ROOT, "%n%d runs per client against one Millrace broker, alternating who goes first; scale %s;"
            + " min / **median** / max%n%n", runs, RunStatistics.format(scale));
        p.println("| scenario | Millrace client | Kafka client | Millrace/Kafka |");
        p.println("| --- | --- | --- | --- |");
        figures.forEach((figure, sides) -> {
            List<Double> m = sides.get(MILLRACE);
            List<Double> k = sides.get(KAFKA);
            List<Double> ratios = new ArrayList<>();
            for (int i = 0; i < Math.min(m.size(), k.size()); i++) {
                ratios.add(m.get(i) / k.get(i));
            }
            p.println("| " + figure + " | " + triple(m) + " | " + triple(k) + " | " + triple(ratios) + " |");
        });
    }

    private static String triple(List<Double> values) {
        double[] s = RunStatistics.minMedianMax(values);
        return RunStatistics.format(s[0]) + " / **" + RunStatistics.format(s[1]) + "** / "
            + RunStatistics.format(s[2]);
    }
}
