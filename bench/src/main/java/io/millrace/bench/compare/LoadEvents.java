package io.millrace.bench.compare;

import io.millrace.common.serialization.ByteArraySerializer;
import io.millrace.producer.ProducerRecord;
import io.millrace.producer.avro.AvroEventProducer;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.EventHeaders;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * The events of the load comparison: tracked Avro events ({@code LoadBenchEvent}: the event header, a
 * sequence number and a text payload) of about {@value #WIRE_BYTES} bytes as the broker stores them
 * (the registry's 5-byte prefix included), with event times spread evenly over the hours before the
 * current one, in offset order, as a partition that receives events as they happen holds them. The
 * payload is random letters and digits, which snappy barely compresses, so the loaded files are
 * about as large as the messages.
 */
final class LoadEvents {

    static final int WIRE_BYTES = 200;
    static final long HOUR_MS = 3_600_000L;

    static final Schema SCHEMA = SchemaBuilder.record("LoadBenchEvent").namespace("io.millrace.bench.events")
        .fields()
        .name(EventHeaders.HEADER_FIELD).type(EventHeaders.SCHEMA).noDefault()
        .requiredLong("seq")
        .requiredString("payload")
        .endRecord();

    /** The registry's wire format: a magic byte and a 4-byte schema id before the Avro binary. */
    private static final int WIRE_PREFIX = 5;
    private static final String SERVER = "load-bench";
    private static final String SERVICE = "bench";
    private static final int TEXT_CHARS = 1 << 20;

    private final long count;
    private final long firstTimeMs;
    private final double spacingMs;
    private final int payloadChars;
    private final String text;

    /** {@code count} events whose times cover the {@code hours} whole hours before {@code nowMs}'s hour. */
    LoadEvents(long count, int hours, long nowMs) {
        this.count = count;
        this.firstTimeMs = (nowMs / HOUR_MS - hours) * HOUR_MS;
        this.spacingMs = hours * (double) HOUR_MS / count;
        this.payloadChars = payloadChars(timeMs(count / 2), count / 2);
        Random random = new Random(42);
        StringBuilder s = new StringBuilder(TEXT_CHARS);
        String alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        for (int i = 0; i < TEXT_CHARS; i++) {
            s.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        this.text = s.toString();
    }

    /** The payload length that makes the event {@code seq}, of time {@code timeMs}, {@value #WIRE_BYTES} bytes. */
    private static int payloadChars(long timeMs, long seq) {
        GenericRecord sample = event(timeMs, seq, "");
        ((GenericRecord) sample.get(EventHeaders.HEADER_FIELD)).put(EventHeaders.ID_FIELD, UUID.randomUUID().toString());
        // an empty string's length takes one byte, the payload's two (64 to 8191 characters)
        int chars = WIRE_BYTES - WIRE_PREFIX - avroBytes(sample) - 1;
        if (chars < 64) {
            throw new IllegalStateException("The event without payload is too large for " + WIRE_BYTES + " bytes");
        }
        return chars;
    }

    private static int avroBytes(GenericRecord event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        try {
            new GenericDatumWriter<GenericRecord>(event.getSchema()).write(event, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.size();
    }

    /** An event with header time {@code timeMs}; the producer fills in the header's id. */
    private static GenericRecord event(long timeMs, long seq, String payload) {
        GenericRecord header = new GenericData.Record(EventHeaders.SCHEMA);
        header.put(EventHeaders.TIME_FIELD, timeMs);
        header.put(EventHeaders.SERVER_FIELD, SERVER);
        header.put(EventHeaders.SERVICE_FIELD, SERVICE);
        GenericRecord event = new GenericData.Record(SCHEMA);
        event.put(EventHeaders.HEADER_FIELD, header);
        event.put("seq", seq);
        event.put("payload", payload);
        return event;
    }

    GenericRecord event(long seq) {
        int from = (int) ((seq * 7919L) % (TEXT_CHARS - payloadChars));
        return event(timeMs(seq), seq, text.substring(from, from + payloadChars));
    }

    long timeMs(long seq) {
        return firstTimeMs + (long) (seq * spacingMs);
    }

    /**
     * Sends every event to partition 0 of {@code topic} with the Avro event producer (its defaults,
     * acks=1, the schema registered on first use) and waits for every acknowledgement.
     *
     * @return the total size of the values, in bytes
     */
    long fill(String bootstrap, SchemaRegistryClient registry, String topic) throws InterruptedException {
        Map<String, Object> props = Map.of("bootstrap.servers", bootstrap, "acks", "1", "auto.register.schemas", true);
        AtomicReference<Exception> failure = new AtomicReference<>();
        AtomicLong acked = new AtomicLong();
        AtomicLong valueBytes = new AtomicLong();
        try (AvroEventProducer<byte[], GenericRecord> producer = new AvroEventProducer<>(props, new ByteArraySerializer(), registry)) {
            for (long seq = 0; seq < count && failure.get() == null; seq++) {
                producer.send(new ProducerRecord<>(topic, 0, null, event(seq)), (md, e) -> {
                    if (e != null) {
                        failure.compareAndSet(null, e);
                    } else {
                        acked.incrementAndGet();
                        valueBytes.addAndGet(md.serializedValueSize());
                    }
                });
            }
            producer.flush();
        }
        if (failure.get() != null || acked.get() != count) {
            throw new IllegalStateException("Filling " + topic + ": " + acked.get() + " of " + count + " acknowledged",
                failure.get());
        }
        return valueBytes.get();
    }
}
