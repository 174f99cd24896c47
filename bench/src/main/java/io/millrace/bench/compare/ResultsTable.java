package io.millrace.bench.compare;

import static io.millrace.bench.compare.RunStatistics.format;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The Markdown table {@code bin/millrace bench} prints: a row per figure, a column per cell and per
 * ratio that has a value in some figure, each as min / **median** / max over the runs; then the
 * machine's ceilings.
 */
final class ResultsTable {

    private ResultsTable() {
    }

    static void print(BrokerComparison bench, PrintStream p) {
        List<Figure> figures = bench.inScenarioOrder();
        List<Cell> cells = Arrays.stream(Cell.values())
            .filter(c -> figures.stream().anyMatch(f -> !f.values(c).isEmpty())).toList();
        List<Ratio> ratios = Arrays.stream(Ratio.values())
            .filter(r -> figures.stream().anyMatch(f -> !f.ratios(r).isEmpty())).toList();
        p.println();
        p.printf(Locale.ROOT, "%d runs per cell, alternating (Millrace's broker and client first in odd rounds, Kafka's in even ones);"
            + " scale %s; heap %s per broker%s; min / **median** / max%n%n", bench.runs, format(bench.scale), bench.heap,
            bench.kafkaSocketBuffers == null ? ""
                : "; Kafka's broker and clients with socket buffers of " + bench.kafkaSocketBuffers + " (--kafka-socket-buffers)");
        StringBuilder head = new StringBuilder("| scenario | metric |");
        StringBuilder rule = new StringBuilder("| --- | --- |");
        cells.forEach(c -> head.append(' ').append(c.label()).append(" |"));
        ratios.forEach(r -> head.append(' ').append(r.label).append(" |"));
        for (int i = 0; i < cells.size() + ratios.size(); i++) {
            rule.append(" --- |");
        }
        p.println(head);
        p.println(rule);
        for (Figure f : figures) {
            StringBuilder row = new StringBuilder("| " + f.scenario + " | " + f.metric + " |");
            cells.forEach(c -> row.append(' ').append(triple(f.values(c))).append(" |"));
            ratios.forEach(r -> row.append(' ').append(triple(f.ratios(r))).append(" |"));
            p.println(row);
        }
        if (!bench.ceilings.isEmpty()) {
            p.println();
            p.println("| 6. ceiling of this machine | GB/s | 200-byte messages/s |");
            p.println("| --- | --- | --- |");
            for (MachineCeilings.Ceiling c : bench.ceilings) {
                p.println("| " + c.name() + " | " + format(c.bytesPerSecond() / 1e9) + " | " + format(c.messagesPerSecond()) + " |");
            }
        }
    }

    private static String triple(List<Double> values) {
        if (values.isEmpty()) {
            return "";
        }
        double[] s = Figure.minMedianMax(values);
        return format(s[0]) + " / **" + format(s[1]) + "** / " + format(s[2]);
    }
}
