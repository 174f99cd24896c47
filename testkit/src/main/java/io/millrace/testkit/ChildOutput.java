package io.millrace.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a child process's output (a server started as an operator would) until the line that says it is
 * ready, then keeps draining the rest on a daemon thread so that the child never blocks on a full pipe.
 */
public final class ChildOutput {

    private ChildOutput() {
    }

    /** The first match of {@code ready} and every line read up to it. */
    public record Ready(Matcher match, List<String> lines) {
    }

    /**
     * Waits for a line of {@code process}'s standard output matching {@code ready}.
     *
     * @throws AssertionError with the lines read so far when the process ends first or {@code timeout} passes
     */
    public static Ready awaitLine(Process process, Pattern ready, Duration timeout) throws IOException {
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        List<String> lines = new ArrayList<>();
        long deadline = System.nanoTime() + timeout.toNanos();
        String line;
        while ((line = out.readLine()) != null && System.nanoTime() < deadline) {
            lines.add(line);
            Matcher match = ready.matcher(line);
            if (match.find()) {
                Thread drain = new Thread(() -> out.lines().forEach(l -> { }), "child-output");
                drain.setDaemon(true);
                drain.start();
                return new Ready(match, lines);
            }
        }
        throw new AssertionError("the process did not print a line matching " + ready + ": " + String.join("\n", lines));
    }
}
