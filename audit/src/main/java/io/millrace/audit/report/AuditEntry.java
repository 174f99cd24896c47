package io.millrace.audit.report;

import org.apache.avro.generic.GenericRecord;

/**
 * One audit record as the report reads it: who counted, and either a window's counts or a lost range.
 * Immutable.
 */
public record AuditEntry(String id, String tier, String cluster, String host, String application, String topic,
                         long emittedAt, Window window, Lost lost) {

    /** A window's counts: {@code [start, end)} of event time. */
    public record Window(long start, long end, long count, long bytes, long noTimeCount, long malformedCount,
                         long failedCount) {
    }

    /** Offsets {@code [first, last]} of a partition that the tier could not deliver. */
    public record Lost(int partition, long first, long last, long count) {
    }

    /** The entry of a decoded {@code io.millrace.audit.AuditRecord}. */
    public static AuditEntry of(GenericRecord record) {
        GenericRecord body = (GenericRecord) record.get("body");
        Window window = null;
        Lost lost = null;
        if (body.getSchema().getName().equals("LostRange")) {
            lost = new Lost((Integer) body.get("partition"), (Long) body.get("firstOffset"), (Long) body.get("lastOffset"),
                (Long) body.get("count"));
        } else {
            window = new Window((Long) body.get("windowStart"), (Long) body.get("windowEnd"), (Long) body.get("count"),
                (Long) body.get("bytes"), (Long) body.get("noTimeCount"), (Long) body.get("malformedCount"),
                (Long) body.get("failedCount"));
        }
        return new AuditEntry(text(record, "id"), text(record, "tier"), text(record, "cluster"), text(record, "host"),
            text(record, "application"), text(record, "topic"), (Long) record.get("emittedAt"), window, lost);
    }

    private static String text(GenericRecord record, String field) {
        return String.valueOf(record.get(field));
    }
}
