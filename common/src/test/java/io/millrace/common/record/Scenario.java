package io.millrace.common.record;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;

/**
 * A batch to build twice, with Millrace's builder and with Kafka's MemoryRecordsBuilder: its
 * records and its header settings. Test helper.
 */
final class Scenario {

    /** One record as a producer hands it over. */
    static final class Input {
        final long timestamp;
        final byte[] key;
        final byte[] value;
        final Header[] headers;

        Input(long timestamp, byte[] key, byte[] value, Header... headers) {
            this.timestamp = timestamp;
            this.key = key;
            this.value = value;
            this.headers = headers;
        }
    }

    final String name;
    final List<Input> records = new ArrayList<>();
    TimestampType timestampType = TimestampType.CREATE_TIME;
    long baseOffset;
    long logAppendTime = RecordBatch.NO_TIMESTAMP;
    long producerId = RecordBatch.NO_PRODUCER_ID;
    short producerEpoch = RecordBatch.NO_PRODUCER_EPOCH;
    int baseSequence = RecordBatch.NO_SEQUENCE;
    boolean transactional;
    int partitionLeaderEpoch = RecordBatch.NO_PARTITION_LEADER_EPOCH;

    private Scenario(String name) {
        this.name = name;
    }

    static List<Scenario> all() {
        return Arrays.asList(mixed(), logAppendTime(), idempotent(), large(), oneHugeRecord());
    }

    /** Keys, null and empty keys and values, headers with null values, timestamps out of order. */
    static Scenario mixed() {
        Scenario s = new Scenario("mixed");
        s.baseOffset = 0;
        s.add(1_700_000_000_000L, "k1", "v1");
        s.add(1_700_000_000_500L, null, "no key");
        s.add(1_699_999_999_000L, "tombstone", null);
        s.add(1_700_000_003_000L, "", "");
        s.records.add(new Input(1_700_000_001_000L, utf8("with headers"), utf8("v5"),
            new Header("trace-id", utf8("abc123")), new Header("null-value", null), new Header("\u00e9t\u00e9", new byte[0])));
        s.add(1_700_000_002_000L, null, null);
        return s;
    }

    static Scenario logAppendTime() {
        Scenario s = mixed();
        Scenario lat = new Scenario("logAppendTime");
        lat.records.addAll(s.records);
        lat.timestampType = TimestampType.LOG_APPEND_TIME;
        lat.logAppendTime = 1_800_000_000_000L;
        lat.baseOffset = 42;
        return lat;
    }

    static Scenario idempotent() {
        Scenario s = new Scenario("idempotent");
        s.baseOffset = 1000;
        s.producerId = 4242;
        s.producerEpoch = 3;
        s.baseSequence = 17;
        s.transactional = true;
        s.partitionLeaderEpoch = 9;
        for (int i = 0; i < 5; i++) {
            s.add(1_700_000_000_000L + i * 7, "key-" + i, "value-" + i);
        }
        return s;
    }

    /** Enough data to cross every codec's buffer and block boundaries (16 KB, 32 KB, 64 KB, 128 KB). */
    static Scenario large() {
        Scenario s = new Scenario("large");
        s.baseOffset = 123_456_789L;
        Random random = new Random(7);
        for (int i = 0; i < 3000; i++) {
            byte[] value = new byte[random.nextInt(400)];
            if (i % 3 == 0) {
                random.nextBytes(value);
            } else {
                Arrays.fill(value, (byte) ('a' + i % 26));
            }
            Header[] headers = i % 10 == 0 ? new Header[] {new Header("i", utf8(Integer.toString(i)))} : new Header[0];
            s.records.add(new Input(1_700_000_000_000L + random.nextInt(100_000), i % 4 == 0 ? null : utf8("key-" + i), value, headers));
        }
        return s;
    }

    /** A record bigger than the 16 KB write buffers, so it bypasses them. */
    static Scenario oneHugeRecord() {
        Scenario s = new Scenario("oneHugeRecord");
        byte[] value = new byte[150_000];
        new Random(11).nextBytes(value);
        for (int i = 0; i < value.length; i += 3) {
            value[i] = 'x';
        }
        s.add(1_700_000_000_000L, "small", "first");
        s.records.add(new Input(1_700_000_000_001L, utf8("huge"), value));
        s.add(1_700_000_000_002L, "small", "last");
        return s;
    }

    private void add(long timestamp, String key, String value) {
        records.add(new Input(timestamp, key == null ? null : utf8(key), value == null ? null : utf8(value)));
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    long expectedTimestamp(Input input) {
        return timestampType == TimestampType.LOG_APPEND_TIME ? logAppendTime : input.timestamp;
    }

    long maxTimestamp() {
        if (timestampType == TimestampType.LOG_APPEND_TIME) {
            return logAppendTime;
        }
        return records.stream().mapToLong(r -> r.timestamp).max().getAsLong();
    }

    ByteBuffer buildWithMillrace(CompressionType compression) {
        RecordBatchBuilder builder = new RecordBatchBuilder(new io.millrace.common.utils.ByteBufferOutputStream(64),
            compression, timestampType, baseOffset, logAppendTime);
        builder.producerState(producerId, producerEpoch, baseSequence, transactional).partitionLeaderEpoch(partitionLeaderEpoch);
        for (Input r : records) {
            builder.append(r.timestamp, r.key, r.value, r.headers);
        }
        return builder.build();
    }

    ByteBuffer buildWithKafka(CompressionType compression) {
        MemoryRecordsBuilder builder = MemoryRecords.builder(ByteBuffer.allocate(64),
            org.apache.kafka.common.record.internal.RecordBatch.CURRENT_MAGIC_VALUE, Kafka.compression(compression),
            Kafka.timestampType(timestampType), baseOffset, logAppendTime, producerId, producerEpoch, baseSequence,
            transactional, partitionLeaderEpoch);
        for (Input r : records) {
            builder.append(r.timestamp, r.key, r.value, Kafka.headers(r.headers));
        }
        return builder.build().buffer();
    }

    @Override
    public String toString() {
        return name;
    }

    /** Conversions to Kafka's types. */
    static final class Kafka {
        private Kafka() {
        }

        static org.apache.kafka.common.compress.Compression compression(CompressionType type) {
            return org.apache.kafka.common.compress.Compression
                .of(org.apache.kafka.common.record.internal.CompressionType.forId(type.id)).build();
        }

        static org.apache.kafka.common.record.TimestampType timestampType(TimestampType type) {
            return type == TimestampType.LOG_APPEND_TIME ? org.apache.kafka.common.record.TimestampType.LOG_APPEND_TIME
                : org.apache.kafka.common.record.TimestampType.CREATE_TIME;
        }

        static org.apache.kafka.common.header.Header[] headers(Header[] headers) {
            org.apache.kafka.common.header.Header[] converted = new org.apache.kafka.common.header.Header[headers.length];
            for (int i = 0; i < headers.length; i++) {
                converted[i] = new RecordHeader(headers[i].key(), headers[i].value());
            }
            return converted;
        }
    }
}
