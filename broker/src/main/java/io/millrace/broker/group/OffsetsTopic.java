package io.millrace.broker.group;

import io.millrace.common.TopicPartition;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchBuilder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The internal topic {@code __consumer_offsets}, Kafka's name, partitioning and record layout, so
 * that Kafka's tools read it as they read Kafka's. A group's commits go to partition
 * {@code abs(groupId.hashCode()) % partitions} and the broker leading that partition coordinates
 * the group. A record's key is version 1 {@code (group, topic, partition)} and its value version 3
 * {@code (offset, leader epoch, metadata, commit time)}; a record without a value deletes the
 * offset. Strings are a two-byte length and UTF-8 bytes, integers big-endian.
 */
public final class OffsetsTopic {

    public static final String NAME = "__consumer_offsets";

    static final short KEY_VERSION = 1;
    static final short VALUE_VERSION = 3;

    private OffsetsTopic() {
    }

    /**
     * How many replicas an internal topic ({@code __consumer_offsets}, {@code __transaction_state}) gets
     * when it is created now, or 0 to wait. A cluster
     * known to have had {@code wanted} brokers waits for them, as Kafka does: a topic made while some are
     * down would stay under-replicated for good, and with {@code min.insync.replicas} above its replica
     * count every commit would fail while one of them is down. A cluster that never had that many (a
     * single broker for development) gets one replica per live broker.
     */
    public static int replicationFactorToCreate(int wanted, int live, int known) {
        if (live == 0 || (live < wanted && known >= wanted)) {
            return 0;
        }
        return Math.min(wanted, live);
    }

    /** The partition holding {@code groupId}'s commits: Kafka's choice, so both pick the same one. */
    public static int partitionFor(String groupId, int partitions) {
        int hash = groupId.hashCode();
        return (hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % partitions;
    }

    /** One decoded record: the offset of {@code partition} in {@code group}, or null when deleted. */
    record Entry(String group, TopicPartition partition, OffsetRegistry.Committed committed) {
    }

    /** One batch holding a record per committed partition; a null {@code Committed} writes a deletion. */
    static ByteBuffer batch(String group, Map<TopicPartition, OffsetRegistry.Committed> offsets, long nowMs) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 64 + 64 * offsets.size());
        for (Map.Entry<TopicPartition, OffsetRegistry.Committed> e : offsets.entrySet()) {
            OffsetRegistry.Committed c = e.getValue();
            builder.append(nowMs, key(group, e.getKey()), c == null ? null : value(c, nowMs));
        }
        return builder.build();
    }

    /**
     * One batch holding a transactional producer's commits, in its transaction: its producer id and
     * epoch, no sequence, as Kafka's group coordinator writes TxnOffsetCommit. The commits count only
     * once the transaction's commit marker follows.
     */
    static ByteBuffer transactionalBatch(String group, Map<TopicPartition, OffsetRegistry.Committed> offsets, long nowMs,
                                         long producerId, short producerEpoch) {
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, 64 + 64 * offsets.size())
            .producerState(producerId, producerEpoch, RecordBatch.NO_SEQUENCE, true);
        for (Map.Entry<TopicPartition, OffsetRegistry.Committed> e : offsets.entrySet()) {
            builder.append(nowMs, key(group, e.getKey()), value(e.getValue(), nowMs));
        }
        return builder.build();
    }

    /** One batch holding the group's generation, or its tombstone when {@code value} is null. */
    static ByteBuffer groupBatch(String group, byte[] value, long nowMs) {
        return groupsBatch(java.util.Collections.singletonMap(group, value), nowMs);
    }

    /** One batch holding a record of each group's generation (a null value: its tombstone). */
    static ByteBuffer groupsBatch(Map<String, byte[]> generations, long nowMs) {
        int size = 64;
        for (Map.Entry<String, byte[]> e : generations.entrySet()) {
            size += 64 + e.getKey().length() * 3 + (e.getValue() == null ? 0 : e.getValue().length);
        }
        RecordBatchBuilder builder = RecordBatchBuilder.create(CompressionType.NONE, 0L, size);
        generations.forEach((group, value) -> builder.append(nowMs, GroupMetadataRecord.key(group), value));
        return builder.build();
    }

    static byte[] key(String group, TopicPartition tp) {
        byte[] g = utf8(group);
        byte[] t = utf8(tp.topic());
        ByteBuffer out = ByteBuffer.allocate(2 + 2 + g.length + 2 + t.length + 4);
        out.putShort(KEY_VERSION);
        putString(out, g);
        putString(out, t);
        out.putInt(tp.partition());
        return out.array();
    }

    static byte[] value(OffsetRegistry.Committed c, long nowMs) {
        byte[] m = utf8(c.metadata());
        ByteBuffer out = ByteBuffer.allocate(2 + 8 + 4 + 2 + m.length + 8);
        out.putShort(VALUE_VERSION);
        out.putLong(c.offset());
        out.putInt(-1);
        putString(out, m);
        out.putLong(nowMs);
        return out.array();
    }

    /**
     * The offset commit {@code record} holds, or null for a record of another kind (Kafka also keeps
     * group metadata, key version 2, in this topic).
     *
     * @throws IllegalArgumentException a commit record whose bytes do not parse
     */
    static Entry decode(Record record) {
        if (!record.hasKey()) {
            return null;
        }
        ByteBuffer key = record.key().duplicate();
        try {
            short version = key.getShort();
            if (version != 0 && version != KEY_VERSION) {
                return null;
            }
            String group = getString(key);
            TopicPartition tp = new TopicPartition(getString(key), key.getInt());
            return new Entry(group, tp, record.hasValue() ? decodeValue(record.value().duplicate()) : null);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Unreadable offset commit record at offset " + record.offset(), e);
        }
    }

    private static OffsetRegistry.Committed decodeValue(ByteBuffer value) {
        short version = value.getShort();
        long offset = value.getLong();
        if (version >= 3) {
            value.getInt(); // leader epoch
        }
        return new OffsetRegistry.Committed(offset, getString(value));
    }

    private static void putString(ByteBuffer out, byte[] bytes) {
        out.putShort((short) bytes.length);
        out.put(bytes);
    }

    private static String getString(ByteBuffer in) {
        int length = in.getShort();
        byte[] bytes = new byte[Math.max(length, 0)];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
