package io.millrace.audit;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The Avro form of the audit stream ({@code AuditRecord.avsc}): one record type, whose body is either
 * a window's counts or a lost range, so that the subject {@code <audit topic>-value} has one schema.
 */
public final class AuditRecords {

    public static final Schema SCHEMA = load();
    static final Schema WINDOW_COUNTS = SCHEMA.getField("body").schema().getTypes().get(0);
    static final Schema LOST_RANGE = SCHEMA.getField("body").schema().getTypes().get(1);

    private AuditRecords() {
    }

    private static Schema load() {
        try (InputStream in = AuditRecords.class.getResourceAsStream("/io/millrace/audit/AuditRecord.avsc")) {
            return new Schema.Parser().parse(in);
        } catch (IOException e) {
            throw new UncheckedIOException("The audit record schema is missing from the classpath", e);
        }
    }

    static GenericRecord windowRecord(String id, AuditSource source, long emittedAt, WindowDelta delta) {
        GenericRecord body = new GenericData.Record(WINDOW_COUNTS);
        body.put("windowStart", delta.windowStart());
        body.put("windowEnd", delta.windowEnd());
        body.put("count", delta.count());
        body.put("bytes", delta.bytes());
        body.put("noTimeCount", delta.noTimeCount());
        body.put("malformedCount", delta.malformedCount());
        body.put("failedCount", delta.failedCount());
        body.put("latencyP50Ms", delta.latencyP50Ms());
        body.put("latencyP99Ms", delta.latencyP99Ms());
        body.put("latencyMaxMs", delta.latencyMaxMs());
        return envelope(id, source, delta.topic(), emittedAt, body);
    }

    static GenericRecord lostRangeRecord(String id, AuditSource source, long emittedAt, LostRangeReport range) {
        GenericRecord body = new GenericData.Record(LOST_RANGE);
        body.put("partition", range.partition());
        body.put("firstOffset", range.firstOffset());
        body.put("lastOffset", range.lastOffset());
        body.put("count", range.count());
        return envelope(id, source, range.topic(), emittedAt, body);
    }

    private static GenericRecord envelope(String id, AuditSource source, String topic, long emittedAt, GenericRecord body) {
        GenericRecord record = new GenericData.Record(SCHEMA);
        record.put("id", id);
        record.put("tier", source.tier());
        record.put("cluster", source.cluster());
        record.put("host", source.host());
        record.put("application", source.application());
        record.put("topic", topic);
        record.put("emittedAt", emittedAt);
        record.put("body", body);
        return record;
    }
}
