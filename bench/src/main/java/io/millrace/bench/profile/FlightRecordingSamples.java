package io.millrace.bench.profile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Reads the Java execution samples ({@code jdk.ExecutionSample}) of a flight recording into a
 * {@link CallTree} whose first level is the sampled thread's name with its numbers replaced by
 * {@code N}, so that a pool's threads add up (every {@code kafka-request-handler-N} together).
 *
 * <p>JFR samples only threads running Java code: time inside a system call (a {@code write},
 * a {@code sendfile}) or waiting is not in these samples, so the tree shows where Java code
 * spends the CPU, not where threads wait.
 */
public final class FlightRecordingSamples {

    public static final String EXECUTION_SAMPLE = "jdk.ExecutionSample";
    private static final Pattern NUMBERS = Pattern.compile("\\d+");
    /** A lambda's hidden class, {@code Foo$$Lambda$123/0x0000000800c3b000}: its numbers change from run to run. */
    private static final Pattern LAMBDA = Pattern.compile("\\$\\$Lambda\\$[^.]*");

    private FlightRecordingSamples() {
    }

    /** Every sample of {@code recording}. */
    public static CallTree read(Path recording, String rootName) throws IOException {
        return read(recording, Map.of(rootName, List.of())).get(rootName);
    }

    /**
     * The samples of {@code recording} by key: a sample goes to the first key one of whose windows
     * contains it (a key with no windows takes every sample). One pass over the file for all keys.
     */
    public static Map<String, CallTree> read(Path recording, Map<String, ? extends Collection<TimeWindow>> windowsByKey)
            throws IOException {
        Map<String, CallTree> trees = new LinkedHashMap<>();
        windowsByKey.keySet().forEach(key -> trees.put(key, new CallTree(key)));
        try (RecordingFile file = new RecordingFile(recording)) {
            while (file.hasMoreEvents()) {
                RecordedEvent event = file.readEvent();
                if (EXECUTION_SAMPLE.equals(event.getEventType().getName())) {
                    String key = TimeWindow.firstKeyContaining(windowsByKey, event.getStartTime());
                    List<String> stack = key == null ? null : stack(event);
                    if (stack != null) {
                        trees.get(key).add(stack);
                    }
                }
            }
        }
        return trees;
    }

    private static List<String> stack(RecordedEvent event) {
        RecordedStackTrace trace = event.getStackTrace();
        if (trace == null) {
            return null;
        }
        List<RecordedFrame> frames = trace.getFrames();
        List<String> fromRoot = new ArrayList<>(frames.size() + 2);
        fromRoot.add(threadGroupName(event.getThread("sampledThread")));
        if (trace.isTruncated()) {
            fromRoot.add("[stack truncated]");
        }
        for (int i = frames.size() - 1; i >= 0; i--) { // JFR lists the innermost frame first
            fromRoot.add(frameName(frames.get(i)));
        }
        return fromRoot;
    }

    static String threadGroupName(RecordedThread thread) {
        if (thread == null) {
            return "[unknown thread]";
        }
        String name = thread.getJavaName() != null ? thread.getJavaName() : thread.getOSName();
        return name == null ? "[unnamed thread]" : NUMBERS.matcher(name).replaceAll("N");
    }

    static String frameName(RecordedFrame frame) {
        RecordedMethod method = frame.getMethod();
        if (method == null) {
            return "[unknown]";
        }
        return LAMBDA.matcher(method.getType().getName()).replaceAll("\\$\\$Lambda") + "." + method.getName();
    }
}
