package io.millrace.hadoop.input;

import io.millrace.schemaregistry.serde.EventHeaders;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.generic.IndexedRecord;

/**
 * When an event happened: its event header's time ({@link EventHeaders}), which the Avro event producer
 * always fills in. An event without a header, or with a null time, falls back to the message's
 * timestamp (which that producer sets to the same time).
 */
final class EventTime {

    private EventTime() {
    }

    static long of(GenericRecord event, long messageTimestamp) {
        Schema.Field headerField = event.getSchema().getField(EventHeaders.HEADER_FIELD);
        if (headerField == null || !(event.get(headerField.pos()) instanceof IndexedRecord header)) {
            return messageTimestamp;
        }
        Schema.Field timeField = header.getSchema().getField(EventHeaders.TIME_FIELD);
        Object time = timeField == null ? null : header.get(timeField.pos());
        return time instanceof Number n ? n.longValue() : messageTimestamp;
    }
}
