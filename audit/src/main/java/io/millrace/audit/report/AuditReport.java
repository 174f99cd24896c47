package io.millrace.audit.report;

import io.millrace.audit.report.Reconciliation.LostRow;
import io.millrace.audit.report.Reconciliation.Row;
import io.millrace.audit.report.Reconciliation.Status;
import java.io.PrintStream;
import java.time.Instant;
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

    public void printTable(PrintStream out) {
        out.printf(Locale.ROOT, "%-24s %-20s %-10s %-10s %12s %12s %10s %8s  %s%n", "topic", "window (UTC)", "tier",
            "cluster", "produced", "counted", "missing", "%", "status");
        for (Row row : rows) {
            double percent = row.expected() == 0 ? 100.0 : 100.0 * row.counted() / row.expected();
            out.printf(Locale.ROOT, "%-24s %-20s %-10s %-10s %,12d %,12d %,10d %7.2f%%  %s%n", row.topic(),
                Instant.ofEpochMilli(row.windowStart()).toString().substring(0, 16), row.tier(), row.cluster(),
                row.expected(), row.counted(), row.missing(), percent, row.status());
        }
        for (LostRow range : lost) {
            out.printf(Locale.ROOT, "LOST at %s/%s: %s-%d offsets %d to %d (%,d records)%n", range.tier(), range.cluster(),
                range.topic(), range.partition(), range.first(), range.last(), range.count());
        }
        long pending = rows.stream().filter(r -> r.status() == Status.PENDING).count();
        out.printf(Locale.ROOT, "%s: %d rows, %d pending, %d lost ranges, %d duplicate audit records ignored%n",
            exitStatus() == COMPLETE ? "COMPLETE" : "INCOMPLETE", rows.size(), pending, lost.size(), duplicateRecords);
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
        StringBuilder q = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                case '\n' -> q.append("\\n");
                default -> {
                    if (c < 0x20) {
                        q.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        q.append(c);
                    }
                }
            }
        }
        return q.append('"').toString();
    }
}
