package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeLogDirs request (api key 35): which log directories a broker has, and the size of each
 * partition in them.
 *
 * <pre>
 * DescribeLogDirsRequest => [topics] TAG_BUFFER
 *   topics => topic [partitions] TAG_BUFFER   a null array asks for every partition
 *     topic      => STRING
 *     partitions => INT32
 * </pre>
 *
 * Version 1 (the oldest Kafka 4 still has) has every field. Version 2 is flexible. Versions 3 to 5
 * change only the response.
 */
public record DescribeLogDirsRequest(List<DescribableLogDirTopic> topics) implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_LOG_DIRS;

    /** The partitions of one topic to describe. */
    public record DescribableLogDirTopic(String topic, List<Integer> partitions) {

        public DescribableLogDirTopic {
            partitions = List.copyOf(partitions);
        }

        private static DescribableLogDirTopic read(ProtocolReader reader) {
            DescribableLogDirTopic topic = new DescribableLogDirTopic(reader.readString(), reader.readInt32Array());
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(topic);
            writer.writeInt32Array(partitions);
            writer.writeTaggedFields();
        }
    }

    /** {@code topics} null asks for every partition the broker has. */
    public DescribeLogDirsRequest {
        topics = topics == null ? null : List.copyOf(topics);
    }

    /** A request for every partition of every log directory. */
    public static DescribeLogDirsRequest all() {
        return new DescribeLogDirsRequest(null);
    }

    public boolean allTopics() {
        return topics == null;
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeLogDirsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<DescribableLogDirTopic> topics = reader.readNullableArray(DescribableLogDirTopic::read, 3);
        reader.readTaggedFields();
        return new DescribeLogDirsRequest(topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeNullableArray(topics, (w, t) -> t.write(w));
        writer.writeTaggedFields();
    }
}
