package io.millrace.bench.profile;

import io.millrace.bench.compare.report.FlameGraphSvg;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code bin/millrace flame-graph RECORDING.jfr OUT.svg [TITLE [THREAD-PREFIX...]]}: the execution
 * samples of a flight recording as a flame graph, for benchmarks that take a recording through
 * {@code MILLRACE_OPTS} rather than {@code --jfr} (e.g. {@code bench-load}). With thread name
 * prefixes, only the samples of those threads (the graph's first level is the thread, its digits
 * replaced by N).
 */
public final class FlameGraphCommand {

    private FlameGraphCommand() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: flame-graph RECORDING.jfr OUT.svg [TITLE [THREAD-PREFIX...]]");
            System.exit(2);
        }
        Path recording = Path.of(args[0]);
        Path svg = Path.of(args[1]);
        String title = args.length >= 3 ? args[2] : recording.getFileName().toString();
        CallTree tree = FlightRecordingSamples.read(recording, "all");
        if (args.length > 3) {
            tree = threads(tree, List.of(args).subList(3, args.length));
        }
        Files.writeString(svg, FlameGraphSvg.render(tree, title), StandardCharsets.UTF_8);
        System.err.printf("flame-graph: %d samples from %s into %s%n", tree.totalSamples(), recording, svg);
    }

    /** The samples of the threads whose names start with one of {@code prefixes}. */
    static CallTree threads(CallTree all, List<String> prefixes) {
        CallTree selected = new CallTree(all.root().frame());
        for (CallTree.Node thread : all.root().children()) {
            if (prefixes.stream().anyMatch(thread.frame()::startsWith)) {
                copy(thread, new ArrayList<>(), selected);
            }
        }
        return selected;
    }

    private static void copy(CallTree.Node node, List<String> path, CallTree into) {
        path.add(node.frame());
        if (node.selfSamples() > 0) {
            into.add(path, node.selfSamples());
        }
        for (CallTree.Node child : node.children()) {
            copy(child, path, into);
        }
        path.remove(path.size() - 1);
    }
}
