package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * OffsetCommit response (api key 8): an error code per partition (ILLEGAL_GENERATION for a commit
 * from an old generation, for instance).
 *
 * <pre>
 * OffsetCommitResponse => throttle_time_ms [topics] TAG_BUFFER
 *   throttle_time_ms => INT32   (v3+, default 0)
 *   topics => name [partitions] TAG_BUFFER
 *     name => STRING
 *     partitions => partition_index error_code TAG_BUFFER   (INT32, INT16)
 * </pre>
 *
 * Version 3 adds the throttle time. Versions 4 to 7 have the same layout, version 8 is flexible,
 * version 9 has the same layout.
 */
public record OffsetCommitResponse(int throttleTimeMs, List<Topic> topics) implements ApiMessage {

    private static final ApiKey API = ApiKey.OFFSET_COMMIT;

    /** One topic's results. */
    public record Topic(String name, List<Partition> partitions) {

        public Topic {
            partitions = List.copyOf(partitions);
        }

        private static Topic read(ProtocolReader reader) {
            String name = reader.readString();
            List<Partition> partitions = reader.readArray(Partition::read, 6);
            reader.readTaggedFields();
            return new Topic(name, partitions);
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    /** Whether one partition's offset was committed. */
    public record Partition(int partitionIndex, short errorCode) {

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static Partition read(ProtocolReader reader) {
            Partition partition = new Partition(reader.readInt32(), reader.readInt16());
            reader.readTaggedFields();
            return partition;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(partitionIndex);
            writer.writeInt16(errorCode);
            writer.writeTaggedFields();
        }
    }

    public OffsetCommitResponse {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static OffsetCommitResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = version >= 3 ? reader.readInt32() : 0;
        List<Topic> topics = reader.readArray(Topic::read, 3);
        reader.readTaggedFields();
        return new OffsetCommitResponse(throttleTimeMs, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 3) {
            writer.writeInt32(throttleTimeMs);
        }
        writer.writeArray(topics, (w, t) -> t.write(w));
        writer.writeTaggedFields();
    }
}
