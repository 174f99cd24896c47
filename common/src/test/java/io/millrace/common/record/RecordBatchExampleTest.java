package io.millrace.common.record;

import static org.junit.Assert.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.junit.Test;

/** The byte example in {@link RecordBatch}'s javadoc is what the builder (and Kafka) writes. */
public class RecordBatchExampleTest {

    /** Copied from the javadoc, field by field. */
    static final String JAVADOC_EXAMPLE = ""
        + "00 00 00 00 00 00 00 00 "
        + "00 00 00 3b "
        + "ff ff ff ff "
        + "02 "
        + "cb f3 29 e0 "
        + "00 00 "
        + "00 00 00 00 "
        + "00 00 01 8b cf e5 68 00 "
        + "00 00 01 8b cf e5 68 00 "
        + "ff ff ff ff ff ff ff ff "
        + "ff ff "
        + "ff ff ff ff "
        + "00 00 00 01 "
        + "12 00 00 00 02 6b 04 68 69 00";

    private static final long TIMESTAMP = 1_700_000_000_000L;

    @Test
    public void theJavadocExampleIsWhatTheBuilderWrites() {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 128);
        builder.append(TIMESTAMP, utf8("k"), utf8("hi"));
        assertEquals(JAVADOC_EXAMPLE, hex(builder.build()));
    }

    @Test
    public void theJavadocExampleIsWhatKafkaWrites() {
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(128),
            org.apache.kafka.common.compress.Compression.NONE, org.apache.kafka.common.record.TimestampType.CREATE_TIME, 0L);
        builder.append(TIMESTAMP, utf8("k"), utf8("hi"));
        assertEquals(JAVADOC_EXAMPLE, hex(builder.build().buffer()));
    }

    @Test
    public void theJavadocExampleReadsBackAsOneRecord() {
        RecordBatch batch = RecordBatch.wrap(ByteBuffer.wrap(unhex(JAVADOC_EXAMPLE)));
        batch.ensureValid();
        assertEquals(71, batch.sizeInBytes());
        assertEquals(0xcbf329e0L, batch.checksum());
        try (RecordIterator records = batch.records()) {
            Record record = records.next();
            assertEquals(0L, record.offset());
            assertEquals(TIMESTAMP, record.timestamp());
            assertEquals("k", StandardCharsets.UTF_8.decode(record.key()).toString());
            assertEquals("hi", StandardCharsets.UTF_8.decode(record.value()).toString());
            assertEquals(10, record.sizeInBytes());
        }
    }

    static String hex(ByteBuffer buffer) {
        StringBuilder hex = new StringBuilder();
        for (int i = buffer.position(); i < buffer.limit(); i++) {
            if (hex.length() > 0) {
                hex.append(' ');
            }
            hex.append(String.format("%02x", buffer.get(i)));
        }
        return hex.toString();
    }

    static byte[] unhex(String hex) {
        String[] parts = hex.trim().split("\\s+");
        byte[] bytes = new byte[parts.length];
        for (int i = 0; i < parts.length; i++) {
            bytes[i] = (byte) Integer.parseInt(parts[i], 16);
        }
        return bytes;
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
