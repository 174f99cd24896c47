package io.millrace.broker.group;

import io.millrace.broker.cluster.MetadataCache;
import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The partitions of an OffsetCommit or TxnOffsetCommit sorted into the commits to write and those
 * refused: a partition the cluster does not have UNKNOWN_TOPIC_OR_PARTITION, metadata over
 * {@value #MAX_METADATA_CHARS} characters OFFSET_METADATA_TOO_LARGE (Kafka's {@code offset.metadata.max.bytes}).
 */
final class CommitPartitions {

    static final int MAX_METADATA_CHARS = 4096;

    private final MetadataCache metadata;
    private final Map<TopicPartition, Errors> refused = new HashMap<>();
    private final Map<TopicPartition, OffsetRegistry.Committed> writes = new LinkedHashMap<>();

    CommitPartitions(MetadataCache metadata) {
        this.metadata = metadata;
    }

    void add(String topic, int partition, long offset, String committedMetadata) {
        TopicPartition tp = new TopicPartition(topic, partition);
        String meta = committedMetadata == null ? "" : committedMetadata;
        if (partition < 0 || partition >= metadata.partitionCount(topic)) {
            refused.put(tp, Errors.UNKNOWN_TOPIC_OR_PARTITION);
        } else if (meta.length() > MAX_METADATA_CHARS) {
            refused.put(tp, Errors.OFFSET_METADATA_TOO_LARGE);
        } else {
            writes.put(tp, new OffsetRegistry.Committed(offset, meta));
        }
    }

    /** The commits to write, in request order. */
    Map<TopicPartition, OffsetRegistry.Committed> writes() {
        return writes;
    }

    /** The partition's answer once the writes ended with {@code written}. */
    Errors answer(TopicPartition tp, Errors written) {
        return refused.getOrDefault(tp, written);
    }
}
