package io.millrace.broker.txn;

import io.millrace.common.TopicPartition;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatchBuilder;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A record of {@code __transaction_state}, in Kafka's layout so that Kafka's tools read the topic
 * as they read Kafka's: the key is a transactional id, the value the id's transaction as last
 * decided; a record without a value deletes the id. Big-endian, strings as an int16 length and
 * UTF-8 bytes, arrays as an int32 count (-1 for null).
 *
 * <pre>
 * Key   => Version TransactionalId                      (version 0)
 * Value => Version ProducerId ProducerEpoch TimeoutMs State [Topic [Partition]] LastUpdateMs StartMs   (version 0)
 *   ProducerId => int64, ProducerEpoch => int16, TimeoutMs => int32, State => int8 ({@link TransactionState})
 *   Topic      => string, Partition => int32;  the partitions are null unless the state has some
 *   LastUpdateMs, StartMs => int64 (StartMs -1 when no transaction is open)
 * </pre>
 *
 * @param transactionalId the key
 * @param producerId      its producer id
 * @param producerEpoch   its producer epoch
 * @param timeoutMs       its transaction.timeout.ms
 * @param state           the transaction's state
 * @param partitions      the partitions of the transaction (empty when none)
 * @param lastUpdateMs    when the state was last changed
 * @param startMs         when the transaction began, -1 when none is open
 */
record TransactionLogRecord(String transactionalId, long producerId, short producerEpoch, int timeoutMs,
                            TransactionState state, Set<TopicPartition> partitions, long lastUpdateMs, long startMs) {

    private static final short KEY_VERSION = 0;
    private static final short VALUE_VERSION = 0;

    /** One batch holding this record, at offset 0 until appended. */
    ByteBuffer toBatch() {
        byte[] key = key(transactionalId);
        byte[] value = value();
        return RecordBatchBuilder.create(CompressionType.NONE, 0L, 96 + key.length + value.length)
            .append(lastUpdateMs, key, value)
            .build();
    }

    static byte[] key(String transactionalId) {
        byte[] id = transactionalId.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(2 + 2 + id.length).putShort(KEY_VERSION).putShort((short) id.length).put(id).array();
    }

    private byte[] value() {
        Map<String, List<Integer>> byTopic = new LinkedHashMap<>();
        for (TopicPartition tp : new TreeSet<>(partitions)) {
            byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>()).add(tp.partition());
        }
        int size = 2 + 8 + 2 + 4 + 1 + 4 + 8 + 8;
        for (Map.Entry<String, List<Integer>> topic : byTopic.entrySet()) {
            size += 2 + topic.getKey().getBytes(StandardCharsets.UTF_8).length + 4 + 4 * topic.getValue().size();
        }
        ByteBuffer out = ByteBuffer.allocate(size);
        out.putShort(VALUE_VERSION).putLong(producerId).putShort(producerEpoch).putInt(timeoutMs).put(state.id());
        if (partitions.isEmpty()) {
            out.putInt(-1);
        } else {
            out.putInt(byTopic.size());
            for (Map.Entry<String, List<Integer>> topic : byTopic.entrySet()) {
                byte[] name = topic.getKey().getBytes(StandardCharsets.UTF_8);
                out.putShort((short) name.length).put(name).putInt(topic.getValue().size());
                topic.getValue().forEach(out::putInt);
            }
        }
        out.putLong(lastUpdateMs).putLong(startMs);
        return out.array();
    }

    /**
     * The transactional id of {@code record}'s key, or null when the key is of a version this
     * broker does not read.
     */
    static String readKey(Record record) {
        ByteBuffer key = record.key().duplicate();
        if (key.getShort() != KEY_VERSION) {
            return null;
        }
        return readString(key);
    }

    /**
     * The record of {@code transactionalId} whose value is {@code value}, of version 0 (Kafka writes
     * version 1 only under transaction protocol V2, which Millrace does not enable).
     *
     * @throws IllegalArgumentException the bytes do not parse
     */
    static TransactionLogRecord readValue(String transactionalId, ByteBuffer value) {
        try {
            ByteBuffer in = value.duplicate();
            short version = in.getShort();
            if (version != 0) {
                throw new IllegalArgumentException("value version " + version);
            }
            long producerId = in.getLong();
            short epoch = in.getShort();
            int timeoutMs = in.getInt();
            TransactionState state = TransactionState.forId(in.get());
            Set<TopicPartition> partitions = new TreeSet<>();
            int topics = in.getInt();
            for (int t = 0; t < topics; t++) {
                String topic = readString(in);
                int count = in.getInt();
                for (int p = 0; p < count; p++) {
                    partitions.add(new TopicPartition(topic, in.getInt()));
                }
            }
            return new TransactionLogRecord(transactionalId, producerId, epoch, timeoutMs, state, partitions, in.getLong(),
                in.getLong());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Unreadable state of transactional id " + transactionalId + ": " + e, e);
        }
    }

    private static String readString(ByteBuffer in) {
        byte[] bytes = new byte[in.getShort()];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
