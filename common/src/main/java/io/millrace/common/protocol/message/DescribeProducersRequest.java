package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeProducers request (api key 61): the producers each named partition remembers.
 *
 * <pre>
 * DescribeProducersRequest => [topics] TAG_BUFFER
 *   topics => name [partition_indexes] TAG_BUFFER
 *     name              => COMPACT_STRING
 *     partition_indexes => INT32
 * </pre>
 *
 * Version 0 is the only one, and flexible.
 */
public record DescribeProducersRequest(List<TopicRequest> topics) implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_PRODUCERS;

    /** Partitions of one topic. */
    public record TopicRequest(String name, List<Integer> partitionIndexes) {

        public TopicRequest {
            partitionIndexes = List.copyOf(partitionIndexes);
        }

        private static TopicRequest read(ProtocolReader reader) {
            TopicRequest topic = new TopicRequest(reader.readString(), reader.readInt32Array());
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeInt32Array(partitionIndexes);
            writer.writeTaggedFields();
        }
    }

    public DescribeProducersRequest {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeProducersRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<TopicRequest> topics = reader.readArray(TopicRequest::read, 3);
        reader.readTaggedFields();
        return new DescribeProducersRequest(topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeArray(topics, (w, t) -> t.write(w));
        writer.writeTaggedFields();
    }
}
