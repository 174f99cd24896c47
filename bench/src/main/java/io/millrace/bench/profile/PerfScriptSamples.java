package io.millrace.bench.profile;

import java.io.BufferedReader;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the samples of a system-wide {@code perf record -a -g} as {@code perf script -F
 * comm,pid,tid,time,ip,sym,dso} prints them, into {@link CallTree}s whose first level is the
 * process (named by the caller from its pid: "broker JVM", "clients JVM"; pid 0 is "idle", the
 * CPUs' idle loop), the second the thread, and below that the stack: kernel frames marked
 * {@code [k]}, JIT-compiled Java frames as the JVM's perf map names them. Where Java profiling
 * sees only Java code, these samples show every CPU's time: system calls, the kernel's copies and
 * page faults, the JVMs' compilers and collectors, and how much of the time the CPUs were idle.
 *
 * <p>Each sample is a header line, {@code java 1234/1240 1732787000.123456:}, then one line per
 * frame, innermost first, {@code \t ffffffff81234567 copy_to_user ([kernel.kallsyms])}, then a
 * blank line. Times are the clock {@code perf record -k realtime} was given, so they compare with
 * wall-clock windows.
 */
public final class PerfScriptSamples {

    /** The process name of pid 0, whose "threads" are the CPUs' idle loops. */
    public static final String IDLE = "idle";
    /** What a kernel frame's name starts with. */
    public static final String KERNEL_PREFIX = "[k] ";
    private static final Pattern HEADER = Pattern.compile("^(.*?)\\s+(\\d+)/(\\d+)\\s+(?:\\[\\d+\\]\\s+)?(\\d+)\\.(\\d+):");
    private static final Pattern FRAME = Pattern.compile("^\\s+[0-9a-f]+\\s+(.*?)\\s+\\((.*)\\)\\s*$");
    private static final Pattern NUMBERS = Pattern.compile("\\d+");
    private static final Pattern LAMBDA = Pattern.compile("\\$\\$Lambda\\$[^.( ]*");

    private PerfScriptSamples() {
    }

    /**
     * The samples by key: a sample goes to the first key one of whose windows contains its time (a
     * key with no windows takes every sample). {@code processName} names a pid's process; the
     * samples of pid 0 are {@value #IDLE} whatever it says.
     */
    public static Map<String, CallTree> read(BufferedReader script, Map<String, ? extends Collection<TimeWindow>> windowsByKey,
                                             LongFunction<String> processName) throws IOException {
        Map<String, CallTree> trees = new LinkedHashMap<>();
        windowsByKey.keySet().forEach(key -> trees.put(key, new CallTree(key)));
        String key = null;
        List<String> frames = new ArrayList<>();
        String line;
        while ((line = script.readLine()) != null) {
            Matcher header = line.isEmpty() || Character.isWhitespace(line.charAt(0)) ? null : HEADER.matcher(line);
            if (header != null && header.find()) {
                add(trees, key, frames);
                key = TimeWindow.firstKeyContaining(windowsByKey, time(header.group(4), header.group(5)));
                frames.clear();
                if (key != null) {
                    long pid = Long.parseLong(header.group(2));
                    frames.add(pid == 0 ? IDLE : processName.apply(pid));
                    frames.add(pid == 0 ? IDLE : NUMBERS.matcher(header.group(1).trim()).replaceAll("N"));
                }
            } else if (key != null) {
                Matcher frame = FRAME.matcher(line);
                if (frame.matches() && frames.size() >= 2 && !IDLE.equals(frames.get(0))) {
                    frames.add(frameName(frame.group(1), frame.group(2)));
                }
            }
        }
        add(trees, key, frames);
        return trees;
    }

    /** The frames were read innermost first, after the process and thread: put them outermost first. */
    private static void add(Map<String, CallTree> trees, String key, List<String> frames) {
        if (key == null || frames.isEmpty()) {
            return;
        }
        List<String> fromRoot = new ArrayList<>(frames);
        Collections.reverse(fromRoot.subList(2, fromRoot.size()));
        trees.get(key).add(fromRoot);
    }

    static String frameName(String symbol, String dso) {
        String name = symbol.isEmpty() || "[unknown]".equals(symbol) ? "[unknown in " + shortDso(dso) + "]" : symbol;
        name = LAMBDA.matcher(name).replaceAll("\\$\\$Lambda");
        return dso.startsWith("[kernel") ? KERNEL_PREFIX + name : javaMethod(name);
    }

    /**
     * A compiled method as the JVM's perf map names it, {@code void io.millrace.Foo.bar(int, long)}, the
     * way the flight recordings' graphs do: {@code io.millrace.Foo.bar}. Anything else stays as it is.
     */
    static String javaMethod(String name) {
        int paren = name.indexOf('(');
        if (paren < 0) {
            return name;
        }
        int space = name.lastIndexOf(' ', paren);
        return name.substring(space + 1, paren);
    }

    private static String shortDso(String dso) {
        int slash = dso.lastIndexOf('/');
        return slash < 0 ? dso : dso.substring(slash + 1);
    }

    private static Instant time(String seconds, String fraction) {
        String micros = (fraction + "000000").substring(0, 6);
        return Instant.ofEpochSecond(Long.parseLong(seconds), Long.parseLong(micros) * 1_000L);
    }
}
