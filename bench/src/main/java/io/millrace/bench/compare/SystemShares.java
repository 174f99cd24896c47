package io.millrace.bench.compare;

import io.millrace.bench.profile.CallTree;
import io.millrace.bench.profile.PerfScriptSamples;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One cell's system-wide samples in a few lines of Markdown: how the two CPUs' time split between
 * idle, the kernel and user code, each process's and busy thread's share, and the frames the
 * samples stopped in most.
 */
final class SystemShares {

    /** Threads below this share of the samples are left out of the table. */
    static final double MIN_THREAD_SHARE = 0.01;

    private SystemShares() {
    }

    static String of(CallTree tree, String title, String svgName, int topFrames) {
        long total = tree.totalSamples();
        StringBuilder md = new StringBuilder("\n## ").append(title).append("\n\n");
        if (total == 0) {
            return md.append("No samples.\n").toString();
        }
        long idle = 0;
        long kernel = 0;
        for (Map.Entry<String, Long> e : tree.selfTimes()) {
            if (e.getKey().startsWith(PerfScriptSamples.KERNEL_PREFIX)) {
                kernel += e.getValue();
            }
        }
        for (CallTree.Node process : tree.root().children()) {
            if (PerfScriptSamples.IDLE.equals(process.frame())) {
                idle = process.samples();
            }
        }
        md.append(String.format(Locale.ROOT, "%,d samples, flame graph `%s`: idle %.1f %%, kernel %.1f %%, user %.1f %%%n%n",
            total, svgName, pct(idle, total), pct(kernel, total), pct(total - idle - kernel, total)));
        md.append("| share of both CPUs | of it in the kernel | process, thread |\n| ---: | ---: | --- |\n");
        for (CallTree.Node process : tree.root().children()) {
            boolean isIdle = PerfScriptSamples.IDLE.equals(process.frame());
            md.append(String.format(Locale.ROOT, "| %.1f %% | %s | **%s** |%n", pct(process.samples(), total),
                isIdle ? "" : String.format(Locale.ROOT, "%.0f %%", pct(kernelSelf(process), process.samples())), process.frame()));
            for (CallTree.Node thread : process.children()) {
                if (!isIdle && thread.samples() >= MIN_THREAD_SHARE * total) {
                    md.append(String.format(Locale.ROOT, "| %.1f %% | %.0f %% | %s |%n", pct(thread.samples(), total),
                        pct(kernelSelf(thread), thread.samples()), thread.frame()));
                }
            }
        }
        md.append("\n| self % | frame |\n| ---: | --- |\n");
        List<Map.Entry<String, Long>> self = tree.selfTimes();
        for (Map.Entry<String, Long> e : self.subList(0, Math.min(topFrames, self.size()))) {
            md.append(String.format(Locale.ROOT, "| %.1f | `%s` |%n", pct(e.getValue(), total), e.getKey()));
        }
        return md.toString();
    }

    /** The samples under {@code node} that stopped in a kernel frame. */
    private static long kernelSelf(CallTree.Node node) {
        long sum = node.frame().startsWith(PerfScriptSamples.KERNEL_PREFIX) ? node.selfSamples() : 0;
        for (CallTree.Node child : node.children()) {
            sum += kernelSelf(child);
        }
        return sum;
    }

    private static double pct(long part, long total) {
        return 100.0 * part / total;
    }
}
