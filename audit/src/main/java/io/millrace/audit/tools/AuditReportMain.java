package io.millrace.audit.tools;

import io.millrace.audit.report.AuditEntry;
import io.millrace.audit.report.AuditReader;
import io.millrace.audit.report.AuditReport;
import io.millrace.audit.report.HtmlReport;
import io.millrace.audit.report.Reconciliation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * {@code bin/millrace audit-report}: reads the audit topic, reconciles every downstream tier against the
 * producers, prints a table (and writes JSON with {@code --json}, a self-contained HTML page with
 * {@code --html}), and exits 0 when every window past the grace period is complete at every tier and
 * nothing was lost, 1 when not, 2 on a usage error, so that a cron job can alert on it.
 */
public final class AuditReportMain {

    static final String USAGE = "Usage: bin/millrace audit-report --bootstrap-server HOST:PORT "
        + "[--schema-registry URL] [--audit-topic TOPIC] [--since TIME] [--until TIME] [--topics REGEX] "
        + "[--grace DURATION] [--json FILE] [--html FILE]\n"
        + "  TIME: an ISO-8601 instant (2026-11-25T10:00:00Z) or milliseconds since the epoch\n"
        + "  DURATION: 90s, 30m, 2h, 1d or ISO-8601 (PT30M); default grace 30m";
    static final int USAGE_ERROR = 2;

    private AuditReportMain() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, System.currentTimeMillis()));
    }

    /**
     * The command without {@code System.exit}, for a caller in the same JVM (a scheduler, a test of a whole
     * pipeline): the table to {@code out}, errors to {@code err}, windows judged as of {@code nowMs}.
     *
     * @return the exit status: 0 complete, 1 incomplete, 2 a usage error
     */
    public static int run(String[] args, PrintStream out, PrintStream err, long nowMs) {
        String bootstrap = null;
        String registry = "http://localhost:8081";
        String auditTopic = "_audit";
        long since = Long.MIN_VALUE;
        long until = Long.MAX_VALUE;
        Pattern topics = Pattern.compile(".*");
        long graceMs = Duration.ofMinutes(30).toMillis();
        Path json = null;
        Path html = null;
        try {
            for (int i = 0; i < args.length; i++) {
                String option = args[i];
                if (option.equals("--help") || option.equals("-h")) {
                    out.println(USAGE);
                    return 0;
                }
                if (i + 1 >= args.length) {
                    throw new IllegalArgumentException(option + " needs a value");
                }
                String value = args[++i];
                switch (option) {
                    case "--bootstrap-server" -> bootstrap = value;
                    case "--schema-registry" -> registry = value;
                    case "--audit-topic" -> auditTopic = value;
                    case "--since" -> since = time(value);
                    case "--until" -> until = time(value);
                    case "--topics" -> topics = Pattern.compile(value);
                    case "--grace" -> graceMs = duration(value);
                    case "--json" -> json = Path.of(value);
                    case "--html" -> html = Path.of(value);
                    default -> throw new IllegalArgumentException("Unknown option " + option);
                }
            }
            if (bootstrap == null) {
                throw new IllegalArgumentException("--bootstrap-server is required");
            }
        } catch (IllegalArgumentException | DateTimeParseException e) {   // PatternSyntaxException included
            err.println("millrace audit-report: " + e.getMessage());
            err.println(USAGE);
            return USAGE_ERROR;
        }
        List<AuditEntry> entries = AuditReader.read(bootstrap, registry, auditTopic, topics, since, until);
        AuditReport report = Reconciliation.reconcile(entries, nowMs, graceMs);
        report.printTable(out);
        if (json != null && !write(json, report.toJson(), err)) {
            return USAGE_ERROR;
        }
        if (html != null && !write(html, HtmlReport.render(report, nowMs), err)) {
            return USAGE_ERROR;
        }
        return report.exitStatus();
    }

    private static boolean write(Path file, String content, PrintStream err) {
        try {
            Files.writeString(file, content, StandardCharsets.UTF_8);
            return true;
        } catch (IOException e) {
            err.println("millrace audit-report: cannot write " + file + ": " + e.getMessage());
            return false;
        }
    }

    static long time(String value) {
        if (value.chars().allMatch(Character::isDigit)) {
            return Long.parseLong(value);
        }
        return Instant.parse(value).toEpochMilli();
    }

    static long duration(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.startsWith("p")) {
            return Duration.parse(value).toMillis();
        }
        if (v.length() < 2) {
            throw new IllegalArgumentException("Not a duration: " + value);
        }
        long amount;
        try {
            amount = Long.parseLong(v.substring(0, v.length() - 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Not a duration: " + value);
        }
        return switch (v.charAt(v.length() - 1)) {
            case 's' -> Duration.ofSeconds(amount).toMillis();
            case 'm' -> Duration.ofMinutes(amount).toMillis();
            case 'h' -> Duration.ofHours(amount).toMillis();
            case 'd' -> Duration.ofDays(amount).toMillis();
            default -> throw new IllegalArgumentException("Not a duration: " + value);
        };
    }
}
