package io.millrace.audit;

import io.millrace.common.record.CompressionType;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import io.millrace.common.serialization.ByteArraySerializer;
import io.millrace.producer.MillraceProducer;
import io.millrace.schemaregistry.client.SchemaRegistryClient;
import io.millrace.schemaregistry.serde.AvroSerializer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * The events a consumer tier's tests read, written to a topic of two partitions as whole batches, so
 * that records without a timestamp (-1) and values that are not Avro can be among them: partition 0
 * holds {@link #OLD} Avro events of an hour-old window, partition 1 {@link #RECENT} of now, then
 * {@link #MALFORMED} whose value is not Avro, then {@link #NO_TIME} without a timestamp (so that reading
 * every decodable event passes the malformed ones).
 */
public final class ConsumedEvents {

    public static final int OLD = 12;
    public static final int RECENT = 8;
    public static final int NO_TIME = 3;
    public static final int MALFORMED = 2;
    /** What the application receives: every event but the malformed ones. */
    public static final int DECODABLE = OLD + RECENT + NO_TIME;

    static final Schema PAGE_VIEW = SchemaBuilder.record("PageView").namespace("io.millrace.audit.test").fields()
        .requiredString("url").endRecord();

    /** The start of the window of the old events. */
    public final long oldWindow;
    /** The key and value bytes of the old events. */
    public final long oldBytes;
    /** The key and value bytes of the recent events and of those without a timestamp. */
    public final long otherBytes;
    /** The key and value bytes of the malformed events, whose timestamps lie in the old window. */
    public final long malformedBytes;

    private ConsumedEvents(long oldWindow, long oldBytes, long otherBytes, long malformedBytes) {
        this.oldWindow = oldWindow;
        this.oldBytes = oldBytes;
        this.otherBytes = otherBytes;
        this.malformedBytes = malformedBytes;
    }

    /** The bytes a tier counts: of every event but the malformed ones, which are counted without their bytes. */
    public long countedBytes() {
        return oldBytes + otherBytes;
    }

    /** Writes the events to {@code topic} (two partitions, existing) and says what was written. */
    public static ConsumedEvents write(String bootstrap, String registryUrl, String topic, long windowMs) throws Exception {
        long now = System.currentTimeMillis();
        long oldWindow = (now - 3 * windowMs) / windowMs * windowMs;
        AvroSerializer<GenericRecord> avro = new AvroSerializer<>(new SchemaRegistryClient(Map.of("schema.registry.url",
            registryUrl)), Map.of("schema.registry.url", registryUrl, "auto.register.schemas", true));
        RecordBatchBuilder old = RecordBatchBuilder.create(CompressionType.NONE, 0, 1024);
        long oldBytes = 0;
        for (int i = 0; i < OLD; i++) {
            oldBytes += append(old, oldWindow + i, "old-" + i, avro.serialize(topic, view("/old/" + i)));
        }
        RecordBatchBuilder recent = RecordBatchBuilder.create(CompressionType.NONE, 0, 1024);
        long otherBytes = 0;
        long malformedBytes = 0;
        for (int i = 0; i < RECENT; i++) {
            otherBytes += append(recent, now, "recent-" + i, avro.serialize(topic, view("/recent/" + i)));
        }
        for (int i = 0; i < MALFORMED; i++) {
            malformedBytes += append(recent, oldWindow, "bad-" + i, ("not avro " + i).getBytes(StandardCharsets.UTF_8));
        }
        for (int i = 0; i < NO_TIME; i++) {
            otherBytes += append(recent, RecordBatch.NO_TIMESTAMP, "untimed-" + i, avro.serialize(topic, view("/x/" + i)));
        }
        try (MillraceProducer<byte[], byte[]> producer = new MillraceProducer<>(Map.of("bootstrap.servers", bootstrap),
                new ByteArraySerializer(), new ByteArraySerializer())) {
            producer.sendRecordBatch(topic, 0, RecordBatch.wrap(old.build()), null).get();
            producer.sendRecordBatch(topic, 1, RecordBatch.wrap(recent.build()), null).get();
        }
        return new ConsumedEvents(oldWindow, oldBytes, otherBytes, malformedBytes);
    }

    private static long append(RecordBatchBuilder batch, long timestamp, String key, byte[] value) {
        byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
        batch.append(timestamp, keyBytes, value);
        return keyBytes.length + value.length;
    }

    private static GenericRecord view(String url) {
        GenericRecord view = new GenericData.Record(PAGE_VIEW);
        view.put("url", url);
        return view;
    }
}
