package io.millrace.audit.report;

import io.millrace.audit.report.Reconciliation.LostRow;
import io.millrace.audit.report.Reconciliation.Row;
import io.millrace.audit.report.Reconciliation.Status;
import java.io.PrintStream;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The reconciliation's answer: a row per topic, window and downstream tier, the lost ranges, and the
 * producers per host for drill-down. Printed as a table for people or as JSON for machines; its exit
 * status is 0 when every window past the grace period is complete at every tier and nothing was lost,
 * 1 otherwise.
 */
public record AuditReport(List<Row> rows, List<LostRow> lost, Map<String, Map<Long, Map<String, Long>>> producerHosts,
                          long duplicateRecords) {

    public static final int COMPLETE = 0;
    public static final int INCOMPLETE = 1;

    public int exitStatus() {
        boolean bad = !lost.isEmpty()
            || rows.stream().anyMatch(r -> r.status() == Status.INCOMPLETE || r.status() == Status.OVER);
        return bad ? INCOMPLETE : COMPLETE;
    }

    /** The table, a line per row, then the lost ranges and a summary line; written to {@code out} at once. */
    public void printTable(PrintStream out) {
        StringBuilder table = new StringBuilder(128 * (rows.size() + lost.size() + 2));
        line(table, "topic", "window (UTC)", "tier", "cluster", "produced", "counted", "missing", "%", "status");
        Map<Long, String> minutes = new HashMap<>();
        for (Row row : rows) {
            double percent = row.expected() == 0 ? 100.0 : 100.0 * row.counted() / row.expected();
            line(table, row.topic(), minutes.computeIfAbsent(row.windowStart(), AuditReport::minute), row.tier(),
                row.cluster(), Figures.grouped(row.expected()), Figures.grouped(row.counted()),
                Figures.grouped(row.missing()), Figures.twoDecimals(percent) + "%", row.status().name());
        }
        for (LostRow range : lost) {
            table.append("LOST at ").append(range.tier()).append('/').append(range.cluster()).append(": ")
                .append(range.topic()).append('-').append(range.partition()).append(" offsets ").append(range.first())
                .append(" to ").append(range.last()).append(" (").append(Figures.grouped(range.count()))
                .append(" records)").append(System.lineSeparator());
        }
        long pending = rows.stream().filter(r -> r.status() == Status.PENDING).count();
        table.append(String.format(Locale.ROOT, "%s: %d rows, %d pending, %d lost ranges, %d duplicate audit records ignored%n",
            exitStatus() == COMPLETE ? "COMPLETE" : "INCOMPLETE", rows.size(), pending, lost.size(), duplicateRecords));
        out.print(table);
        out.flush();
    }

    private static String minute(long epochMs) {
        return Instant.ofEpochMilli(epochMs).toString().substring(0, 16);
    }

    /** One line of the table, laid out as {@code "%-24s %-20s %-10s %-10s %12s %12s %10s %8s  %s%n"}. */
    private static void line(StringBuilder b, String topic, String window, String tier, String cluster, String produced,
                             String counted, String missing, String percent, String status) {
        Figures.left(b, topic, 24).append(' ');
        Figures.left(b, window, 20).append(' ');
        Figures.left(b, tier, 10).append(' ');
        Figures.left(b, cluster, 10).append(' ');
        Figures.right(b, produced, 12).append(' ');
        Figures.right(b, counted, 12).append(' ');
        Figures.right(b, missing, 10).append(' ');
        Figures.right(b, percent, 8).append("  ").append(status).append(System.lineSeparator());
    }

    public String toJson() {
        StringBuilder json = new StringBuilder("{\"status\":\"").append(exitStatus() == COMPLETE ? "COMPLETE" : "INCOMPLETE")
            .append("\",\"duplicateRecords\":").append(duplicateRecords).append(",\"rows\":[");
        for (int i = 0; i < rows.size(); i++) {
            Row r = rows.get(i);
            json.append(i == 0 ? "" : ",").append("{\"topic\":").append(quote(r.topic()))
                .append(",\"windowStart\":").append(r.windowStart()).append(",\"windowEnd\":").append(r.windowEnd())
                .append(",\"tier\":").append(quote(r.tier())).append(",\"cluster\":").append(quote(r.cluster()))
                .append(",\"produced\":").append(r.expected()).append(",\"counted\":").append(r.counted())
                .append(",\"missing\":").append(r.missing()).append(",\"status\":\"").append(r.status()).append("\"");
            Map<String, Long> hosts = r.producers();
            json.append(",\"producerHosts\":{");
            int h = 0;
            for (Map.Entry<String, Long> host : hosts.entrySet()) {
                json.append(h++ == 0 ? "" : ",").append(quote(host.getKey())).append(':').append(host.getValue());
            }
            json.append("}}");
        }
        json.append("],\"lost\":[");
        for (int i = 0; i < lost.size(); i++) {
            LostRow l = lost.get(i);
            json.append(i == 0 ? "" : ",").append("{\"tier\":").append(quote(l.tier())).append(",\"cluster\":")
                .append(quote(l.cluster())).append(",\"topic\":").append(quote(l.topic())).append(",\"partition\":")
                .append(l.partition()).append(",\"firstOffset\":").append(l.first()).append(",\"lastOffset\":")
                .append(l.last()).append(",\"count\":").append(l.count()).append('}');
        }
        return json.append("]}").toString();
    }

    private static String quote(String s) {
        StringBuilder q = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                case '\n' -> q.append("\\n");
                default -> {
                    if (c < 0x20) {
                        q.append("\\u00").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 0xF, 16));
                    } else {
                        q.append(c);
                    }
                }
            }
        }
        return q.append('"').toString();
    }
}
