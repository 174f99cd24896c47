package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * ElectLeaders request (api key 43): elect a leader now for the partitions named.
 *
 * <pre>
 * ElectLeadersRequest => election_type [topic_partitions] timeout_ms TAG_BUFFER
 *   election_type    => INT8     (v1+) 0 the preferred replica, 1 any live replica when no in-sync one is
 *   topic_partitions => topic [partitions] TAG_BUFFER   a null array names every partition
 *     topic      => STRING
 *     partitions => INT32
 *   timeout_ms => INT32
 * </pre>
 *
 * Version 0 elects preferred replicas only. Version 1 adds election_type (KIP-460). Version 2 is flexible.
 */
public record ElectLeadersRequest(byte electionType, List<TopicPartitions> topicPartitions, int timeoutMs)
    implements ApiMessage {

    public static final byte PREFERRED = 0;
    public static final byte UNCLEAN = 1;

    private static final ApiKey API = ApiKey.ELECT_LEADERS;

    /** Partitions of one topic. */
    public record TopicPartitions(String topic, List<Integer> partitions) {

        public TopicPartitions {
            partitions = List.copyOf(partitions);
        }

        private static TopicPartitions read(ProtocolReader reader) {
            TopicPartitions topic = new TopicPartitions(reader.readString(), reader.readInt32Array());
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(topic);
            writer.writeInt32Array(partitions);
            writer.writeTaggedFields();
        }
    }

    /** {@code topicPartitions} null names every partition of the cluster. */
    public ElectLeadersRequest {
        topicPartitions = topicPartitions == null ? null : List.copyOf(topicPartitions);
    }

    public boolean allPartitions() {
        return topicPartitions == null;
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ElectLeadersRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        byte type = version >= 1 ? reader.readInt8() : PREFERRED;
        List<TopicPartitions> partitions = reader.readNullableArray(TopicPartitions::read, 3);
        int timeoutMs = reader.readInt32();
        reader.readTaggedFields();
        return new ElectLeadersRequest(type, partitions, timeoutMs);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 1) {
            writer.writeInt8(electionType);
        } else if (electionType != PREFERRED) {
            throw new IllegalArgumentException("ElectLeaders v0 elects preferred replicas only");
        }
        writer.writeNullableArray(topicPartitions, (w, t) -> t.write(w));
        writer.writeInt32(timeoutMs);
        writer.writeTaggedFields();
    }
}
