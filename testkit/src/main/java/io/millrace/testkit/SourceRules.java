package io.millrace.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Layering rules checked over a module's main sources, so a test fails when code reaches across
 * a boundary the design keeps (who may see compression libraries, who may print, that Apache
 * Kafka's classes stay in tests). Reads files as text; run from the module's directory, as
 * Maven's surefire does.
 */
public final class SourceRules {

    private SourceRules() {
    }

    /** The main sources of the module the test runs in. */
    public static Path mainSources() {
        return Path.of("src", "main", "java");
    }

    /**
     * Fails with every offending file:line when a source file whose path does not match
     * {@code allowedIn} contains a line matching {@code forbidden}.
     */
    public static void assertNoLineMatches(Path root, String forbidden, Predicate<Path> allowedIn, String why) {
        Pattern pattern = Pattern.compile(forbidden);
        List<String> offences = new ArrayList<>();
        for (Path file : javaFiles(root)) {
            if (allowedIn.test(root.relativize(file))) {
                continue;
            }
            List<String> lines = read(file);
            for (int i = 0; i < lines.size(); i++) {
                if (pattern.matcher(lines.get(i)).find()) {
                    offences.add(file + ":" + (i + 1) + ": " + lines.get(i).trim());
                }
            }
        }
        if (!offences.isEmpty()) {
            throw new AssertionError(why + "\n" + String.join("\n", offences));
        }
    }

    /** Library code logs through SLF4J; only command-line entry points may print. */
    public static void assertNoConsoleOutput(Path root, Predicate<Path> commandLineTools) {
        assertNoLineMatches(root, "System\\.(out|err)\\.|printStackTrace\\(\\)", commandLineTools,
            "Library code must log through SLF4J, not the console:");
    }

    /** Apache Kafka's jars are test-scope only: main code speaks the protocol itself. */
    public static void assertNoKafkaImports(Path root) {
        assertNoKafkaImports(root, p -> false);
    }

    /** As {@link #assertNoKafkaImports(Path)}, except in the files {@code allowed} accepts (adapters to Kafka's client API). */
    public static void assertNoKafkaImports(Path root, Predicate<Path> allowed) {
        assertNoLineMatches(root, "^import (static )?org\\.apache\\.kafka\\.", allowed,
            "Main code must not use Apache Kafka's classes:");
    }

    private static List<Path> javaFiles(Path root) {
        if (!Files.isDirectory(root)) {
            throw new AssertionError("No source directory " + root.toAbsolutePath());
        }
        try (Stream<Path> paths = Files.walk(root)) {
            return paths.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> read(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
