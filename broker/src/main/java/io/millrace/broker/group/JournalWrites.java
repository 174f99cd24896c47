package io.millrace.broker.group;

import io.millrace.common.TopicPartition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.api.transaction.CuratorOp;

/**
 * Writes commits taken from the offsets topic to the offset registry: deletions first, then the
 * offsets in transactions within ZooKeeper's bounds ({@value #MAX_OPS} operations and
 * {@value #MAX_BYTES} bytes, under its 1 MiB {@code jute.maxbuffer}), the mark in the last of them, so the mark moves only once
 * everything below it is written.
 */
final class JournalWrites {

    static final int MAX_OPS = 1_000;
    static final int MAX_BYTES = 512 * 1024;

    private JournalWrites() {
    }

    static void write(OffsetRegistry registry, Map<JournalPartition.Key, JournalPartition.Unwritten> entries, CuratorOp mark)
        throws Exception {
        Map<String, List<TopicPartition>> deletions = new LinkedHashMap<>();
        Map<String, Map<TopicPartition, OffsetRegistry.Committed>> offsets = new LinkedHashMap<>();
        entries.forEach((key, entry) -> {
            if (entry.committed() == null) {
                deletions.computeIfAbsent(key.group(), g -> new ArrayList<>()).add(key.partition());
            } else {
                offsets.computeIfAbsent(key.group(), g -> new LinkedHashMap<>()).put(key.partition(), entry.committed());
            }
        });
        for (Map.Entry<String, List<TopicPartition>> d : deletions.entrySet()) {
            registry.delete(d.getKey(), d.getValue());
        }
        List<OffsetRegistry.Write> chunk = new ArrayList<>();
        int ops = 0;
        int bytes = 0;
        for (Map.Entry<String, Map<TopicPartition, OffsetRegistry.Committed>> group : offsets.entrySet()) {
            for (Map.Entry<TopicPartition, OffsetRegistry.Committed> e : group.getValue().entrySet()) {
                OffsetRegistry.Write write = new OffsetRegistry.Write(group.getKey(), Map.of(e.getKey(), e.getValue()));
                if (!chunk.isEmpty() && (ops + write.operationCount() >= MAX_OPS
                    || bytes + write.byteCount() > MAX_BYTES)) {
                    registry.commitAll(chunk);
                    chunk = new ArrayList<>();
                    ops = 0;
                    bytes = 0;
                }
                chunk.add(write);
                ops += write.operationCount();
                bytes += write.byteCount();
            }
        }
        registry.commitAll(chunk, List.of(mark));
    }
}
