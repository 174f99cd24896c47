package io.millrace.bench.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A broker JVM's stop-the-world pauses, read back from the unified GC log it writes with
 * {@code -Xlog:gc:file=<file>:time}: one line per collection, stamped with the wall-clock time at
 * its end, e.g. {@code [2026-11-27T09:10:00.123+0000] GC(5) Pause Young (Normal) (G1 Evacuation
 * Pause) 24M->14M(388M) 4.243ms}. The end-to-end scenario uses it to tell how much of a tail a
 * broker's collections explain.
 */
final class GcLog {

    /** Pauses counted in a window: how many, their sum and the longest, in milliseconds. */
    record Pauses(int count, double totalMillis, double longestMillis) {
        static final Pauses NONE = new Pauses(0, 0, 0);
    }

    private static final Pattern PAUSE = Pattern.compile("^\\[([^\\]]+)\\].* Pause .* ([0-9.]+)ms$");
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

    private GcLog() {
    }

    /** The JVM option that makes a JVM write {@code file} in the form read here. */
    static String option(Path file) {
        return "-Xlog:gc:file=" + file.toAbsolutePath() + ":time";
    }

    /** The pauses that ended between {@code from} and {@code to}; none if the log is missing. */
    static Pauses between(Path file, Instant from, Instant to) throws IOException {
        if (!Files.exists(file)) {
            return Pauses.NONE;
        }
        return between(Files.readAllLines(file), from, to);
    }

    static Pauses between(List<String> lines, Instant from, Instant to) {
        int count = 0;
        double total = 0;
        double longest = 0;
        for (String line : lines) {
            Matcher m = PAUSE.matcher(line.strip());
            if (!m.matches()) {
                continue;
            }
            Instant end;
            try {
                end = OffsetDateTime.parse(m.group(1), STAMP).toInstant();
            } catch (DateTimeParseException e) {
                continue;
            }
            if (end.isBefore(from) || end.isAfter(to)) {
                continue;
            }
            double millis = Double.parseDouble(m.group(2));
            count++;
            total += millis;
            longest = Math.max(longest, millis);
        }
        return new Pauses(count, total, longest);
    }
}
