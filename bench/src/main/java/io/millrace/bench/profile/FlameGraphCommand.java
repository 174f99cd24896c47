package io.millrace.bench.profile;

import io.millrace.bench.compare.report.FlameGraphSvg;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code bin/millrace flame-graph RECORDING.jfr OUT.svg [TITLE]}: the execution samples of a flight
 * recording as a flame graph, for benchmarks that take a recording through {@code MILLRACE_OPTS}
 * rather than {@code --jfr} (e.g. {@code bench-load}).
 */
public final class FlameGraphCommand {

    private FlameGraphCommand() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: flame-graph RECORDING.jfr OUT.svg [TITLE]");
            System.exit(2);
        }
        Path recording = Path.of(args[0]);
        Path svg = Path.of(args[1]);
        String title = args.length == 3 ? args[2] : recording.getFileName().toString();
        CallTree tree = FlightRecordingSamples.read(recording, "all");
        Files.writeString(svg, FlameGraphSvg.render(tree, title), StandardCharsets.UTF_8);
        System.err.printf("flame-graph: %d samples from %s into %s%n", tree.totalSamples(), recording, svg);
    }
}
