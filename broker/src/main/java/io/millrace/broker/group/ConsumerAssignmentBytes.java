package io.millrace.broker.group;

import io.millrace.common.TopicPartition;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * A consumer-protocol member's partitions as Kafka's ConsumerProtocolAssignment version 0, which
 * DescribeGroups carries and Kafka's admin client and tools read:
 * {@code version INT16, [topic STRING, [partition INT32]], user_data BYTES (null)}.
 */
final class ConsumerAssignmentBytes {

    private ConsumerAssignmentBytes() {
    }

    static ByteBuffer of(Set<TopicPartition> partitions) {
        Map<String, List<Integer>> byTopic = new TreeMap<>(partitions.stream().collect(Collectors.groupingBy(
            TopicPartition::topic, Collectors.mapping(TopicPartition::partition, Collectors.toList()))));
        int size = 2 + 4 + 4;
        for (Map.Entry<String, List<Integer>> e : byTopic.entrySet()) {
            size += 2 + e.getKey().getBytes(StandardCharsets.UTF_8).length + 4 + 4 * e.getValue().size();
        }
        ByteBuffer buffer = ByteBuffer.allocate(size);
        buffer.putShort((short) 0).putInt(byTopic.size());
        byTopic.forEach((topic, list) -> {
            byte[] name = topic.getBytes(StandardCharsets.UTF_8);
            buffer.putShort((short) name.length).put(name).putInt(list.size());
            list.stream().sorted().forEach(buffer::putInt);
        });
        buffer.putInt(-1);
        return buffer.flip();
    }
}
