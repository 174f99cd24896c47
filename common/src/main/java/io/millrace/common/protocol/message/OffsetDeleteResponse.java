package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * OffsetDelete response (api key 47): the group's error, then one per partition
 * (GROUP_SUBSCRIBED_TO_TOPIC when the group still consumes the topic).
 *
 * <pre>
 * OffsetDeleteResponse => error_code throttle_time_ms [topics]
 *   error_code       => INT16
 *   throttle_time_ms => INT32
 *   topics => name [partitions]
 *     name => STRING
 *     partitions => partition_index error_code   (INT32, INT16)
 * </pre>
 *
 * Version 0 is the only version; it is not flexible. The error code comes before the throttle
 * time here, unlike in every other response.
 */
public record OffsetDeleteResponse(short errorCode, int throttleTimeMs, List<Topic> topics) implements ApiMessage {

    private static final ApiKey API = ApiKey.OFFSET_DELETE;

    /** One topic's results. */
    public record Topic(String name, List<Partition> partitions) {

        public Topic {
            partitions = List.copyOf(partitions);
        }

        private static Topic read(ProtocolReader reader) {
            return new Topic(reader.readString(), reader.readArray(Partition::read, 6));
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w));
        }
    }

    /** Whether one partition's offset was deleted. */
    public record Partition(int partitionIndex, short errorCode) {

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static Partition read(ProtocolReader reader) {
            return new Partition(reader.readInt32(), reader.readInt16());
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(partitionIndex);
            writer.writeInt16(errorCode);
        }
    }

    public OffsetDeleteResponse {
        topics = List.copyOf(topics);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static OffsetDeleteResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        short errorCode = reader.readInt16();
        int throttleTimeMs = reader.readInt32();
        return new OffsetDeleteResponse(errorCode, throttleTimeMs, reader.readArray(Topic::read, 6));
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt16(errorCode);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(topics, (w, t) -> t.write(w));
    }
}
