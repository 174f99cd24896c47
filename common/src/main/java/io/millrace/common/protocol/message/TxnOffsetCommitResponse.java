package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * TxnOffsetCommit response (api key 28): an error code per partition.
 *
 * <pre>
 * TxnOffsetCommitResponse => throttle_time_ms [topics] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   topics => name [partitions] TAG_BUFFER
 *     name       => STRING
 *     partitions => partition_index error_code TAG_BUFFER   (INT32, INT16)
 * </pre>
 *
 * Versions 0 to 4 all have this layout; 3 and 4 are flexible (3 may answer ILLEGAL_GENERATION,
 * UNKNOWN_MEMBER_ID and FENCED_INSTANCE_ID). Version 5 belongs to transaction protocol V2 and is not
 * supported.
 */
public record TxnOffsetCommitResponse(int throttleTimeMs, List<Topic> topics) implements ApiMessage {

    private static final ApiKey API = ApiKey.TXN_OFFSET_COMMIT;

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

    /** Whether one partition's offset was committed to the transaction. */
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

    public TxnOffsetCommitResponse {
        topics = List.copyOf(topics);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static TxnOffsetCommitResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        List<Topic> topics = reader.readArray(Topic::read, 3);
        reader.readTaggedFields();
        return new TxnOffsetCommitResponse(throttleTimeMs, topics);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(topics, (w, t) -> t.write(w));
        writer.writeTaggedFields();
    }
}
