package io.millrace.bench.compare.report;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Renders a comparison's {@code results.json} as {@code report.html} beside it: one self-contained
 * file (inline styles and SVG charts, no scripts, nothing fetched) with the summary table, the
 * throughput and latency charts, throughput over time and the machine's ceilings.
 *
 * <p>{@code java ... io.millrace.bench.compare.report.HtmlReport DIR} re-renders a saved result.
 */
public final class HtmlReport {

    public static final String RESULTS = "results.json";
    public static final String REPORT = "report.html";
    /** Where {@code bench --jfr} draws its flame graphs, beside the report. */
    public static final String FLAMES = "flames";

    /** Lenient about what the bench may write when a run had no number: NaN, Infinity. */
    private static final JsonMapper JSON = JsonMapper.builder()
        .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
        .build();

    private HtmlReport() {
    }

    /**
     * Reads {@code outDir/results.json} and writes {@code outDir/report.html}.
     *
     * @return the report's path
     * @throws IOException when results.json cannot be read or is not JSON, or the report cannot be written;
     *     missing or null entries in it only leave out what they would have shown
     */
    public static Path write(Path outDir) throws IOException {
        JsonNode root = JSON.readTree(outDir.resolve(RESULTS).toFile());
        if (root == null || !root.isObject()) {
            throw new IOException(outDir.resolve(RESULTS) + " does not hold a JSON object");
        }
        String html = new ReportPage(BenchResults.from(root), flameGraphs(outDir)).render();
        Path report = outDir.resolve(REPORT);
        Files.writeString(report, html, StandardCharsets.UTF_8);
        return report;
    }

    static String render(BenchResults results) {
        return new ReportPage(results).render();
    }

    /** The flame graphs a {@code --jfr} run drew under {@code outDir/flames}, as paths relative to {@code outDir}. */
    static List<String> flameGraphs(Path outDir) throws IOException {
        Path flames = outDir.resolve(FLAMES);
        if (!Files.isDirectory(flames)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(flames)) {
            return files.map(f -> f.getFileName().toString()).filter(name -> name.endsWith(".svg")).sorted()
                .map(name -> FLAMES + "/" + name).toList();
        }
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("Usage: HtmlReport DIR   (DIR holds " + RESULTS + "; " + REPORT + " is written beside it)");
            System.exit(2);
        }
        System.out.println(write(Path.of(args[0])));
    }
}
