package io.millrace.examples.hive;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * {@code bin/millrace demo --hive} as the launcher runs it: the demo in a JVM whose classpath is the examples
 * module's jar and {@code target/lib} alone (no Hive), told where this module's jar is, which then starts the
 * Hive stage in a JVM of its own from that jar's Class-Path. The demo must end with Hive agreeing with the load,
 * and the counts Hive wrote must add up to the events the load reported.
 */
public class DemoWithHiveIT {

    private static final Pattern LOADED = Pattern.compile("loaded ([\\d,]+) events into");

    @Test
    public void theDemoEndsWithHiveCountingWhatItLoaded() throws Exception {
        Path examplesJar = Path.of(System.getProperty("millrace.examples.jar", "../target/none.jar"));
        Path examplesLib = Path.of(System.getProperty("millrace.examples.lib", "../target/lib"));
        Path hiveJar = Path.of(System.getProperty("millrace.demo.hive.jar", "target/none.jar"));
        for (Path built : List.of(examplesJar, examplesLib, hiveJar)) {
            assertTrue(built + " is missing: package the examples modules first", Files.exists(built));
        }
        try (Stream<Path> jars = Files.list(examplesLib)) {
            List<String> hive = jars.map(jar -> jar.getFileName().toString()).filter(name -> name.startsWith("hive-")).toList();
            assertEquals("Hive's jars stay off the launcher's classpath", List.of(), hive);
        }
        Path dir = Path.of(System.getProperty("demo.with.hive.it.dir", "target/demo-with-hive-it")).toAbsolutePath()
            .resolve("demo");
        // a directory left from an earlier run holds another load's state and files: the demo must start afresh
        delete(dir.getParent());
        Files.createDirectories(dir.getParent());
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx1g",
            "-Dmillrace.log.level=WARN", "-Dorg.apache.avro.SERIALIZABLE_PACKAGES=io.millrace",
            "-Dmillrace.demo.hive.jar=" + hiveJar.toAbsolutePath(),
            "-cp", examplesJar.toAbsolutePath() + File.pathSeparator + examplesLib.toAbsolutePath() + "/*",
            "io.millrace.examples.pipeline.PipelineDemo", "--hive", "--events", "1000", "--dir", dir.toString());
        Path log = dir.getParent().resolve("demo.log");
        Process demo = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!demo.waitFor(5, TimeUnit.MINUTES)) {
            demo.destroyForcibly();
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(output, 0, demo.exitValue());
        Matcher loaded = LOADED.matcher(output);
        assertTrue(output, loaded.find());
        long events = Long.parseLong(loaded.group(1).replace(",", ""));
        assertTrue(output, output.contains("Hive counted exactly what the load wrote: " + loaded.group(1) + " events in"));
        assertTrue(output, output.contains("hive | table page_views over "));
        assertEquals(events, countedByHive(dir.resolve("hive").resolve("counts.tsv")));
    }

    private static void delete(Path dir) throws IOException {
        if (Files.exists(dir)) {
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                    Files.delete(path);
                }
            }
        }
    }

    private static long countedByHive(Path counts) throws IOException {
        return Files.readAllLines(counts, StandardCharsets.UTF_8).stream().map(TopicHourCount::parse)
            .mapToLong(TopicHourCount::events).sum();
    }
}
