package io.millrace.bench.groups;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.bench.groups.GroupFigures.Figure;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.Test;

public class GroupFiguresTest {

    private static final Figure TIME = new Figure("join", "ms", false);
    private static final Figure RATE = new Figure("commits", "commits/s", true);

    @Test
    public void theMedianIsTheMiddleValueOrTheMeanOfTheTwoMiddleOnes() {
        assertArrayEquals(new double[] {1, 3, 9}, io.millrace.bench.compare.RunStatistics.minMedianMax(List.of(9.0, 1.0, 3.0)), 0);
        assertArrayEquals(new double[] {1, 2.5, 9}, io.millrace.bench.compare.RunStatistics.minMedianMax(List.of(9.0, 2.0, 1.0, 3.0)), 0);
        assertTrue(Double.isNaN(io.millrace.bench.compare.RunStatistics.minMedianMax(List.of())[1]));
    }

    @Test
    public void ratiosPairTheRunsOfTheFirstTwoSidesInOrder() {
        GroupFigures f = new GroupFigures(List.of("Millrace", "Kafka", "Kafka defaults"));
        f.add(RATE, "Millrace", 100);
        f.add(RATE, "Kafka", 400);
        f.add(RATE, "Millrace", 300);
        f.add(RATE, "Kafka", 200);
        f.add(RATE, "Kafka defaults", 1);
        assertEquals(List.of(0.25, 1.5), f.ratios(RATE));
    }

    @Test
    public void noWorseComparesMediansInTheFiguresOwnDirection() {
        GroupFigures f = new GroupFigures(List.of("Millrace", "Kafka"));
        f.add(TIME, "Millrace", 10);
        f.add(TIME, "Kafka", 20);
        f.add(RATE, "Millrace", 10);
        f.add(RATE, "Kafka", 20);
        assertEquals(Boolean.TRUE, f.noWorse(TIME));
        assertEquals(Boolean.FALSE, f.noWorse(RATE));
        f.add(new Figure("alone", "ms", false), "Kafka", 1);
        assertNull(f.noWorse(new Figure("alone", "ms", false)));
    }

    @Test
    public void aSideWithFewerRunsOrANonFiniteValueIsMissing() {
        GroupFigures f = new GroupFigures(List.of("Millrace", "Kafka"));
        assertEquals(List.of("every figure"), f.missing(2));
        f.add(TIME, "Millrace", 1);
        f.add(TIME, "Millrace", 2);
        f.add(TIME, "Kafka", 1);
        f.add(TIME, "Kafka", Double.NaN);
        f.add(RATE, "Millrace", 1);
        assertEquals(List.of("join (Kafka)", "commits (Millrace)"), f.missing(2));
    }

    @Test
    public void aSideNotDeclaredIsRefused() {
        GroupFigures f = new GroupFigures(List.of("Millrace", "Kafka"));
        assertThrows(IllegalArgumentException.class, () -> f.add(TIME, "Pulsar", 1));
        assertThrows(IllegalArgumentException.class, () -> new GroupFigures(List.of("Millrace")));
    }

    @Test
    public void theTableHasARowPerFigureWithADashWhereASideDidNotRun() {
        GroupFigures f = new GroupFigures(List.of("Millrace", "Kafka", "Kafka defaults"));
        f.add(TIME, "Millrace", 12.5);
        f.add(TIME, "Kafka", 25);
        f.add(TIME, "Kafka defaults", 3025);
        f.add(RATE, "Millrace", 1500);
        f.add(RATE, "Kafka", 3000);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        f.table(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        List<String> lines = bytes.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals(List.of(
            "| figure | Millrace | Kafka | Kafka defaults | Millrace/Kafka | no worse? |",
            "| --- | --- | --- | --- | --- | --- |",
            "| join, ms | 12.5 / **12.5** / 12.5 | 25.0 / **25.0** / 25.0 | 3,025 / **3,025** / 3,025 | 0.50 / **0.50** / 0.50 | yes |",
            "| commits, commits/s | 1,500 / **1,500** / 1,500 | 3,000 / **3,000** / 3,000 | – | 0.50 / **0.50** / 0.50 | no |"),
            lines);
    }

    @Test
    public void theJsonHoldsEveryValueBySide() {
        GroupFigures f = new GroupFigures(List.of("Millrace", "Kafka"));
        f.add(TIME, "Millrace", 1.5);
        f.add(TIME, "Kafka", Double.NaN);
        assertEquals("{\n  \"join, ms\": {\"Millrace\": [1.500], \"Kafka\": [null]}\n}\n", f.json());
    }
}
