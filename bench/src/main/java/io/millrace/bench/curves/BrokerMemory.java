package io.millrace.bench.curves;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A broker JVM's memory, as the OS sees it and as the JVM does: the resident set ({@code VmRSS} in
 * {@code /proc/<pid>/status}: heap pages touched so far, metaspace, thread stacks, direct buffers and
 * mapped index files alike) and the heap still reachable ({@code jcmd GC.class_histogram}, which collects
 * and then counts the live objects in one step), which is what the broker holds rather than what it has not
 * collected yet. (A full collection and then {@code GC.heap_info} is not the same: a broker busy in the
 * background allocates hundreds of MB between the two.)
 */
final class BrokerMemory {

    private static final Pattern RSS = Pattern.compile("(?m)^VmRSS:\\s+(\\d+)\\s+kB");
    private static final Pattern HEAP_RANGE = Pattern.compile("\\[0x([0-9a-f]+),\\s*0x([0-9a-f]+)\\)");
    private static final Pattern MAPPING = Pattern.compile("([0-9a-f]+)-([0-9a-f]+) ");
    private static final Pattern HISTOGRAM_TOTAL = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)\\s*$");

    private BrokerMemory() {
    }

    /** The resident set of process {@code pid} in MB (10^6 bytes), or NaN where {@code /proc} does not tell. */
    static double rssMb(long pid) {
        try {
            return rssKb(Files.readString(Path.of("/proc", Long.toString(pid), "status"))) * 1024 / 1e6;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
    }

    /**
     * The resident set of process {@code pid} outside its Java heap, in MB: VmRSS less the resident part
     * of the mappings within the heap's address range (as {@code jcmd GC.heap_info} gives it). What is left
     * is metaspace, code, thread stacks, direct buffers and mapped files: what a broker holds per
     * connection or partition outside the heap, which VmRSS alone hides under however much of the heap the
     * JVM happened to touch. NaN when {@code /proc} or {@code jcmd} does not tell.
     */
    static double outsideHeapMb(long pid) {
        try {
            long[] heap = heapRange(jcmd(pid, "GC.heap_info"));
            Path proc = Path.of("/proc", Long.toString(pid));
            double rss = rssKb(Files.readString(proc.resolve("status")));
            return (rss - residentKbWithin(Files.readString(proc.resolve("smaps")), heap[0], heap[1])) * 1024 / 1e6;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }

    /** The heap's [start, end) addresses from {@code GC.heap_info}'s first line. */
    static long[] heapRange(String heapInfo) {
        Matcher m = HEAP_RANGE.matcher(heapInfo);
        if (!m.find()) {
            throw new IllegalArgumentException("no heap address range in " + heapInfo);
        }
        return new long[] {Long.parseUnsignedLong(m.group(1), 16), Long.parseUnsignedLong(m.group(2), 16)};
    }

    /** The Rss, in kB, of the mappings of {@code /proc/<pid>/smaps} that lie within [from, to). */
    static double residentKbWithin(String smaps, long from, long to) {
        long kb = 0;
        boolean inside = false;
        for (String line : smaps.split("\\n")) {
            Matcher header = MAPPING.matcher(line);
            if (header.lookingAt()) {
                inside = Long.parseUnsignedLong(header.group(1), 16) >= from && Long.parseUnsignedLong(header.group(2), 16) <= to;
            } else if (inside && line.startsWith("Rss:")) {
                kb += Long.parseLong(line.replaceAll("[^0-9]", ""));
            }
        }
        return kb;
    }

    static double rssKb(String status) {
        Matcher m = RSS.matcher(status);
        return m.find() ? Long.parseLong(m.group(1)) : Double.NaN;
    }

    /**
     * The bytes of the live objects in JVM {@code pid}'s heap, in MB; NaN when {@code jcmd} cannot
     * attach. Costs the broker a full collection: call it between measurements, not during one.
     */
    static double liveHeapMb(long pid) {
        try {
            return histogramTotalBytes(jcmd(pid, "GC.class_histogram")) / 1e6;
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Double.NaN;
        }
    }

    /** The bytes of the "Total" line of a class histogram. */
    static double histogramTotalBytes(String histogram) {
        Matcher m = HISTOGRAM_TOTAL.matcher(histogram);
        return m.find() ? Long.parseLong(m.group(1)) : Double.NaN;
    }

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid), command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("jcmd " + command + " failed: " + new String(out, StandardCharsets.UTF_8));
        }
        return new String(out, StandardCharsets.UTF_8);
    }
}
