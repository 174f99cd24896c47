package io.millrace.broker.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.millrace.common.TopicPartition;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordIterator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.Test;

public class OffsetsTopicTest {

    @Test
    public void aGroupGoesToThePartitionKafkaPicks() {
        // Kafka: Utils.abs(groupId.hashCode) % partitions, where abs(MIN_VALUE) is 0
        assertEquals(Math.abs("my-group".hashCode()) % 50, OffsetsTopic.partitionFor("my-group", 50));
        String minHash = "polygenelubricants"; // String.hashCode() == Integer.MIN_VALUE
        assertEquals(Integer.MIN_VALUE, minHash.hashCode());
        assertEquals(0, OffsetsTopic.partitionFor(minHash, 50));
    }

    @Test
    public void commitsAndDeletionsRoundTripThroughABatch() {
        Map<TopicPartition, OffsetRegistry.Committed> offsets = new LinkedHashMap<>();
        offsets.put(new TopicPartition("clicks", 3), new OffsetRegistry.Committed(42, "ünïcode meta"));
        offsets.put(new TopicPartition("clicks", 4), new OffsetRegistry.Committed(7, ""));
        offsets.put(new TopicPartition("views", 0), null);
        ByteBuffer batch = OffsetsTopic.batch("g1", offsets, 1_700_000_000_000L);

        List<OffsetsTopic.Entry> entries = new ArrayList<>();
        try (RecordIterator records = RecordBatch.wrap(batch).records()) {
            while (records.hasNext()) {
                entries.add(OffsetsTopic.decode(records.next()));
            }
        }
        assertEquals(3, entries.size());
        assertEquals(new OffsetsTopic.Entry("g1", new TopicPartition("clicks", 3), new OffsetRegistry.Committed(42, "ünïcode meta")),
            entries.get(0));
        assertEquals(new OffsetRegistry.Committed(7, ""), entries.get(1).committed());
        assertEquals(new TopicPartition("views", 0), entries.get(2).partition());
        assertNull(entries.get(2).committed());
    }

    @Test
    public void theValueIsKafkasVersion3Layout() {
        byte[] value = OffsetsTopic.value(new OffsetRegistry.Committed(99, "m"), 5L);
        ByteBuffer in = ByteBuffer.wrap(value);
        assertEquals(3, in.getShort());
        assertEquals(99L, in.getLong());
        assertEquals(-1, in.getInt()); // leader epoch: none
        assertEquals(1, in.getShort());
        assertEquals('m', in.get());
        assertEquals(5L, in.getLong());
        assertEquals(0, in.remaining());

        ByteBuffer key = ByteBuffer.wrap(OffsetsTopic.key("g", new TopicPartition("t", 2)));
        assertEquals(1, key.getShort());
        assertEquals(1, key.getShort());
        assertEquals('g', key.get());
        assertEquals(1, key.getShort());
        assertEquals('t', key.get());
        assertEquals(2, key.getInt());
    }

    @Test
    public void recordsOfOtherKindsAreSkipped() {
        // key version 2 is Kafka's group metadata record
        ByteBuffer groupMetadataKey = ByteBuffer.allocate(2 + 2 + 1);
        groupMetadataKey.putShort((short) 2).putShort((short) 1).put("g".getBytes(StandardCharsets.UTF_8)).flip();
        ByteBuffer batch = io.millrace.common.record.RecordBatchBuilder.create(io.millrace.common.record.CompressionType.NONE, 0L, 64)
            .append(1L, groupMetadataKey, ByteBuffer.allocate(4)).build();
        try (RecordIterator records = RecordBatch.wrap(batch).records()) {
            Record record = records.next();
            assertNull(OffsetsTopic.decode(record));
        }
    }
}
