package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * ListPartitionReassignments request (api key 46): the moves still going on.
 *
 * <pre>
 * ListPartitionReassignmentsRequest => timeout_ms [topics] TAG_BUFFER
 *   timeout_ms => INT32
 *   topics     => name [partition_indexes] TAG_BUFFER   a null array asks for every partition
 * </pre>
 *
 * Version 0 is the only one, and flexible.
 */
public record ListPartitionReassignmentsRequest(int timeoutMs, List<TopicPartitions> topics) implements ApiMessage {

    private static final ApiKey API = ApiKey.LIST_PARTITION_REASSIGNMENTS;

    /** Partitions of one topic. */
    public record TopicPartitions(String name, List<Integer> partitionIndexes) {

        public TopicPartitions {
            partitionIndexes = List.copyOf(partitionIndexes);
        }

        private static TopicPartitions read(ProtocolReader reader) {
            TopicPartitions topic = new TopicPartitions(reader.readString(), reader.readInt32Array());
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeInt32Array(partitionIndexes);
            writer.writeTaggedFields();
        }
    }

    /** {@code topics} null asks for every partition under reassignment. */
    public ListPartitionReassignmentsRequest {
        topics = topics == null ? null : List.copyOf(topics);
    }

    public boolean allPartitions() {
        return topics == null;
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ListPartitionReassignmentsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int timeoutMs = reader.readInt32();
        List<TopicPartitions> topics = reader.readNullableArray(TopicPartitions::read, 3);
        reader.readTaggedFields();
        return new ListPartitionReassignmentsRequest(timeoutMs, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(timeoutMs);
        writer.writeNullableArray(topics, (w, t) -> t.write(w));
        writer.writeTaggedFields();
    }
}
