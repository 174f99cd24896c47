package io.millrace.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * The design's layering, checked over every module's main sources: who may see the compression
 * libraries, that nothing but the launcher-level modules depends on the broker, that Apache
 * Kafka's classes stay in tests, and that library code logs rather than prints.
 */
public class LayeringTest {

    private static final Path PROJECT = Path.of("..").toAbsolutePath().normalize();
    private static final Path COMPRESS = Path.of("io", "millrace", "common", "compress");

    @Test
    public void onlyTheCompressPackageSeesCodecLibraries() {
        for (Path sources : mainSourceRoots()) {
            SourceRules.assertNoLineMatches(sources,
                "^import (static )?(org\\.xerial\\.snappy|net\\.jpountz|com\\.github\\.luben"
                    + "|java\\.util\\.zip\\.(?!CRC32C?;|Checksum;))",
                p -> p.startsWith(COMPRESS), "Compression libraries are used only in io.millrace.common.compress:");
        }
    }

    @Test
    public void onlyLauncherLevelModulesDependOnTheBroker() {
        for (Path sources : mainSourceRoots()) {
            String module = PROJECT.relativize(sources).getName(0).toString();
            if (List.of("broker", "testkit", "examples", "bench").contains(module)) {
                continue;
            }
            SourceRules.assertNoLineMatches(sources, "^import (static )?io\\.millrace\\.broker\\.", p -> false,
                "Module " + module + " must not depend on the broker:");
        }
    }

    @Test
    public void commonHoldsNoServerAndNoFileIo() {
        // common carries the client end of connections; serving and storage belong to the broker
        SourceRules.assertNoLineMatches(PROJECT.resolve("common/src/main/java"),
            "^import (static )?(io\\.netty\\.bootstrap\\.ServerBootstrap|io\\.netty\\.channel\\.ServerChannel"
                + "|java\\.nio\\.channels\\.FileChannel|java\\.nio\\.file\\.|java\\.io\\.File)",
            p -> p.endsWith(Path.of("io", "millrace", "common", "config", "ServerArguments.java")),
            "common must not contain server code or file I/O (reading a server's --config file aside):");
    }

    /**
     * Kafka's classes stay in tests and the bench, with one kind of exception: the adapters that plug
     * Millrace into Kafka's own clients (the audit's interceptors), in a package named {@code kafka}
     * of the audit module, which takes kafka-clients as a provided dependency.
     */
    @Test
    public void mainCodeDoesNotUseKafkaClasses() {
        Path audit = PROJECT.resolve("audit/src/main/java");
        Path adapters = Path.of("io", "millrace", "audit", "kafka");
        for (Path sources : mainSourceRoots()) {
            if (!sources.startsWith(PROJECT.resolve("bench"))) {
                SourceRules.assertNoKafkaImports(sources, p -> sources.equals(audit) && p.startsWith(adapters));
            }
        }
    }

    @Test
    public void libraryCodeDoesNotPrint() {
        for (Path sources : mainSourceRoots()) {
            // examples are console programs, like the broker's tools: printing is what they are for
            boolean consoleModule = sources.startsWith(PROJECT.resolve("examples"));
            SourceRules.assertNoConsoleOutput(sources,
                p -> consoleModule || p.toString().contains("tools") || p.toString().contains("bench"));
        }
    }

    @Test
    public void rulesSeeTheModulesTheyGuard() {
        List<Path> roots = mainSourceRoots();
        if (!roots.contains(PROJECT.resolve("common/src/main/java")) || !roots.contains(PROJECT.resolve("broker/src/main/java"))) {
            throw new AssertionError("Expected to find common and broker sources under " + PROJECT + ", found " + roots);
        }
    }

    private static List<Path> mainSourceRoots() {
        try (Stream<Path> modules = Files.list(PROJECT)) {
            return modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
