package io.millrace.common;

import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.Test;

/**
 * Only {@code io.millrace.common.compress} may import compression libraries, so a codec can be
 * swapped or upgraded in one package. Checksums from java.util.zip (CRC32C) are not codecs.
 */
public class ImportBoundaryTest {

    private static final Path MAIN_SOURCES = Paths.get("src", "main", "java");
    private static final Path COMPRESS = Paths.get("io", "millrace", "common", "compress");
    private static final Pattern CODEC_IMPORT = Pattern.compile(
        "^import\\s+(static\\s+)?(org\\.xerial\\.snappy|net\\.jpountz|com\\.github\\.luben"
            + "|java\\.util\\.zip\\.(?!CRC32C?;|Checksum;))");

    @Test
    public void onlyTheCompressPackageImportsCodecLibraries() throws IOException {
        assertTrue("run from the module directory: " + MAIN_SOURCES.toAbsolutePath(), Files.isDirectory(MAIN_SOURCES));
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(MAIN_SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).collect(Collectors.toList())) {
                if (!MAIN_SOURCES.relativize(file).startsWith(COMPRESS)) {
                    violations.addAll(codecImports(file));
                }
            }
        }
        assertTrue("codec imports outside common.compress: " + violations, violations.isEmpty());
    }

    private static List<String> codecImports(Path file) throws IOException {
        return Files.readAllLines(file, StandardCharsets.UTF_8).stream()
            .filter(line -> CODEC_IMPORT.matcher(line.trim()).find())
            .map(line -> file + ": " + line.trim())
            .collect(Collectors.toList());
    }
}
