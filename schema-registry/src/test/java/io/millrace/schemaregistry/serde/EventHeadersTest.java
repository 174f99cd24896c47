package io.millrace.schemaregistry.serde;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import io.millrace.testkit.MockTime;
import java.util.UUID;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.Test;

public class EventHeadersTest {

    static final Schema CLICK = SchemaBuilder.record("Click").namespace("io.millrace.test").fields()
        .name("header").type(EventHeaders.SCHEMA).noDefault()
        .requiredString("target")
        .endRecord();

    private final MockTime time = new MockTime();
    private final EventHeaders headers = new EventHeaders(time, "web-7");

    static GenericRecord click(GenericRecord header) {
        GenericRecord click = new GenericData.Record(CLICK);
        click.put("header", header);
        click.put("target", "buy");
        return click;
    }

    static GenericRecord header(String service) {
        GenericRecord header = new GenericData.Record(EventHeaders.SCHEMA);
        header.put("service", service);
        return header;
    }

    @Test
    public void theShippedSchemaIsTheEventHeaderRecord() {
        assertEquals("io.millrace.events.EventHeader", EventHeaders.SCHEMA.getFullName());
        assertEquals(4, EventHeaders.SCHEMA.getFields().size());
        for (String field : new String[] {"time", "server", "service", "id"}) {
            assertTrue(field, EventHeaders.SCHEMA.getField(field) != null);
        }
    }

    @Test
    public void absentTimeServerAndIdAreFilledIn() {
        GenericRecord click = click(header("shop"));
        long eventTime = headers.fill(click);
        GenericRecord header = (GenericRecord) click.get("header");
        assertEquals(time.milliseconds(), eventTime);
        assertEquals(time.milliseconds(), header.get("time"));
        assertEquals("web-7", header.get("server"));
        assertEquals("shop", header.get("service"));
        assertEquals(header.get("id"), UUID.fromString((String) header.get("id")).toString());
    }

    @Test
    public void whatTheApplicationSetIsKept() {
        GenericRecord header = header("shop");
        header.put("time", 1_700_000_000_000L);
        header.put("server", "batch-1");
        header.put("id", "0e6c7d3c-3d4e-4b8a-9a57-6f0f7d3b9c11");
        assertEquals(1_700_000_000_000L, headers.fill(click(header)));
        assertEquals("batch-1", header.get("server"));
        assertEquals("0e6c7d3c-3d4e-4b8a-9a57-6f0f7d3b9c11", header.get("id"));
    }

    @Test
    public void everyEventGetsItsOwnId() {
        GenericRecord first = click(header("shop"));
        GenericRecord second = click(header("shop"));
        headers.fill(first);
        headers.fill(second);
        assertNotEquals(((GenericRecord) first.get("header")).get("id"), ((GenericRecord) second.get("header")).get("id"));
    }

    @Test
    public void anEventWithoutItsHeaderIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> headers.fill(click(null)));
        assertTrue(e.getMessage(), e.getMessage().contains("io.millrace.test.Click"));
    }

    @Test
    public void schemasWithoutARequiredHeaderAreRefused() {
        Schema noHeader = SchemaBuilder.record("Plain").fields().requiredString("target").endRecord();
        Schema optionalHeader = SchemaBuilder.record("Optional").fields()
            .name("header").type().optional().type(EventHeaders.SCHEMA).endRecord();
        Schema otherHeader = SchemaBuilder.record("Other").fields()
            .name("header").type(SchemaBuilder.record("EventHeader").namespace("elsewhere").fields()
                .requiredLong("time").endRecord()).noDefault().endRecord();
        Schema notARecord = Schema.create(Schema.Type.STRING);
        for (Schema schema : new Schema[] {noHeader, optionalHeader, otherHeader, notARecord}) {
            assertThrows(schema.toString(), IllegalArgumentException.class, () -> EventHeaders.validate(schema));
        }
        EventHeaders.validate(CLICK);
    }

    @Test
    public void theLocalHostHasAName() {
        assertTrue(!EventHeaders.localHostName().isEmpty());
    }
}
