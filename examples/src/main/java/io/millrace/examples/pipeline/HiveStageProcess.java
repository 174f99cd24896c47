package io.millrace.examples.pipeline;

import io.millrace.hadoop.state.HourCount;
import io.millrace.hadoop.state.LoadSummary;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The demo's Hive stage ({@code --hive}): the Hive module's {@code io.millrace.examples.hive.HiveStage} in a JVM
 * of its own, run from that module's jar (named by {@value #JAR_PROPERTY}, which {@code bin/millrace demo --hive}
 * sets once it has built it), so that Hive's jars never join the demo's classpath. Embedded Hive makes the
 * tables {@code bin/millrace hive-ddl} prints over what the load wrote, adds its hours as partitions and counts
 * the events of every topic and hour; its table is shown with a {@code hive | } prefix, its log goes to
 * {@code hive/hive-stage.log} under the demo's directory, and its counts must be the load's, topic by topic and
 * hour by hour.
 */
final class HiveStageProcess {

    static final String JAR_PROPERTY = "millrace.demo.hive.jar";
    private static final String MAIN = "io.millrace.examples.hive.HiveStage";
    /** What Hive 4.1's Driver, metastore and local MapReduce reach into on Java 17, as in the Hive module's build. */
    private static final List<String> OPENS = List.of("java.base/java.net", "java.base/java.util", "java.base/java.lang",
        "java.base/java.nio", "java.base/java.util.concurrent", "java.base/java.util.concurrent.atomic",
        "java.base/java.util.regex", "java.base/java.lang.reflect", "java.sql/java.sql", "java.base/java.io",
        "java.base/java.text");
    private static final long TIME_LIMIT_MINUTES = 10;

    private HiveStageProcess() {
    }

    /**
     * With {@code asked}, runs the stage over {@code <workDir>/load/data} and tells {@code stage} whether Hive counted
     * what {@code load} wrote; without, tells it that the stage exists. False only when the stage ran and failed or
     * disagreed.
     */
    static boolean run(boolean asked, DataCentre offline, List<String> topics, Path workDir, LoadSummary load,
                       PrintStream out, Consumer<String> stage) throws IOException, InterruptedException {
        if (!asked) {
            stage.accept("Hive stage skipped: bin/millrace demo --hive adds embedded Hive counting events per topic and "
                + "hour over the loaded files (its ~350 MB of jars are built on first use, in a JVM of their own)");
            return true;
        }
        String jar = System.getProperty(JAR_PROPERTY);
        if (jar == null || !Files.isRegularFile(Path.of(jar))) {
            stage.accept("Hive stage FAILED: no Hive stage build (" + JAR_PROPERTY + " is " + jar + "); run it as "
                + "bin/millrace demo --hive, which builds examples/hive");
            return false;
        }
        Path dir = workDir.resolve("hive");
        Files.createDirectories(dir);
        stage.accept("Hive stage: embedded Hive (Derby metastore, LocalJobRunner) in a JVM of its own, tables as "
            + "bin/millrace hive-ddl prints them; its log is " + dir.resolve("hive-stage.log"));
        int status = runStage(jar, offline, topics, workDir, dir, out);
        if (status != 0) {
            stage.accept("Hive stage FAILED with status " + status + "; see " + dir.resolve("hive-stage.log"));
            return false;
        }
        List<String> mismatches = compare(loaded(load), counted(dir.resolve("counts.tsv")));
        mismatches.forEach(mismatch -> stage.accept("Hive stage MISMATCH: " + mismatch));
        if (mismatches.isEmpty()) {
            stage.accept(String.format(Locale.ROOT, "Hive counted exactly what the load wrote: %,d events in %d topic hours",
                load.records(), loaded(load).size()));
        }
        return mismatches.isEmpty();
    }

    private static int runStage(String jar, DataCentre offline, List<String> topics, Path workDir, Path dir, PrintStream out)
        throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx1g"));
        OPENS.forEach(module -> command.addAll(List.of("--add-opens", module + "=ALL-UNNAMED")));
        command.addAll(List.of("-cp", jar, MAIN, "--data-root", workDir.resolve("load").resolve("data").toUri().toString(),
            "--schema-registry", offline.registryUrl(), "--topics", String.join(",", topics), "--dir", dir.toString(),
            "--counts", dir.resolve("counts.tsv").toString()));
        Process process = new ProcessBuilder(command).directory(dir.toFile())
            .redirectError(dir.resolve("hive-stage.log").toFile()).start();
        try (InputStream table = process.getInputStream();
             PrintStream prefixed = new PrintStream(new LinePrefix("hive | ", out), true, StandardCharsets.UTF_8)) {
            table.transferTo(prefixed);
        }
        if (!process.waitFor(TIME_LIMIT_MINUTES, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new IllegalStateException("The Hive stage did not end within " + TIME_LIMIT_MINUTES + " minutes");
        }
        return process.exitValue();
    }

    /** The load's events by topic and hour label ({@code <topic> <yyyy-MM-ddTHH>}). */
    private static Map<String, Long> loaded(LoadSummary load) {
        Map<String, Long> counts = new TreeMap<>();
        for (HourCount hour : load.counts()) {
            counts.merge(hour.topic() + " " + hour.hour(), hour.records(), Long::sum);
        }
        return counts;
    }

    /** Hive's counts, from the stage's file: a line per topic and hour, {@code topic TAB hour TAB events}. */
    private static Map<String, Long> counted(Path file) throws IOException {
        Map<String, Long> counts = new TreeMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            String[] fields = line.split("\t");
            counts.merge(fields[0] + " " + fields[1], Long.parseLong(fields[2]), Long::sum);
        }
        return counts;
    }

    /** A line per topic whose total differs, then per topic hour that differs; empty when Hive agrees. */
    static List<String> compare(Map<String, Long> loaded, Map<String, Long> counted) {
        List<String> mismatches = new ArrayList<>();
        Map<String, Long> loadedTotals = totals(loaded);
        Map<String, Long> countedTotals = totals(counted);
        for (String topic : union(loadedTotals, countedTotals)) {
            long wrote = loadedTotals.getOrDefault(topic, 0L);
            long hive = countedTotals.getOrDefault(topic, 0L);
            if (wrote != hive) {
                mismatches.add(String.format(Locale.ROOT, "topic %s: Hive counted %,d events, the load wrote %,d", topic,
                    hive, wrote));
            }
        }
        for (String hour : union(loaded, counted)) {
            if (!Objects.equals(loaded.get(hour), counted.get(hour))) {
                mismatches.add(String.format(Locale.ROOT, "%s: Hive counted %,d events, the load wrote %,d", hour,
                    counted.getOrDefault(hour, 0L), loaded.getOrDefault(hour, 0L)));
            }
        }
        return mismatches;
    }

    private static Map<String, Long> totals(Map<String, Long> byHour) {
        Map<String, Long> totals = new TreeMap<>();
        byHour.forEach((hour, events) -> totals.merge(hour.substring(0, hour.indexOf(' ')), events, Long::sum));
        return totals;
    }

    private static TreeSet<String> union(Map<String, Long> a, Map<String, Long> b) {
        TreeSet<String> keys = new TreeSet<>(a.keySet());
        keys.addAll(b.keySet());
        return keys;
    }
}
