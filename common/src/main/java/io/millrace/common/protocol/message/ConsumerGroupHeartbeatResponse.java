package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * ConsumerGroupHeartbeat response (api key 68).
 *
 * <pre>
 * ConsumerGroupHeartbeatResponse => throttle_time_ms error_code error_message member_id member_epoch
 *                                   heartbeat_interval_ms assignment TAG_BUFFER
 *   throttle_time_ms      => INT32
 *   error_code            => INT16
 *   error_message         => COMPACT_NULLABLE_STRING
 *   member_id             => COMPACT_NULLABLE_STRING
 *   member_epoch          => INT32
 *   heartbeat_interval_ms => INT32
 *   assignment            => nullable struct: INT8 -1 when null, 1 then
 *                            [topic_partitions] (topic_id UUID, partitions COMPACT_ARRAY(INT32)) TAG_BUFFER
 * </pre>
 *
 * Versions 0 and 1 have the same layout. A null assignment means "unchanged"; a present one is every
 * partition the member may own now.
 */
public record ConsumerGroupHeartbeatResponse(int throttleTimeMs, short errorCode, String errorMessage, String memberId,
                                             int memberEpoch, int heartbeatIntervalMs,
                                             List<ConsumerGroupHeartbeatRequest.TopicPartitions> assignment)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.CONSUMER_GROUP_HEARTBEAT;

    /** An error answer: no member id, epoch -1, no assignment. */
    public static ConsumerGroupHeartbeatResponse error(Errors error, String message) {
        return new ConsumerGroupHeartbeatResponse(0, error.code(), message, null, -1, 0, null);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ConsumerGroupHeartbeatResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, true);
        int throttleTimeMs = reader.readInt32();
        short errorCode = reader.readInt16();
        String errorMessage = reader.readNullableString();
        String memberId = reader.readNullableString();
        int memberEpoch = reader.readInt32();
        int heartbeatIntervalMs = reader.readInt32();
        List<ConsumerGroupHeartbeatRequest.TopicPartitions> assignment = null;
        if (reader.readInt8() >= 0) {
            assignment = reader.readArray(ConsumerGroupHeartbeatRequest.TopicPartitions::read, 18);
            reader.readTaggedFields();
        }
        reader.readTaggedFields();
        return new ConsumerGroupHeartbeatResponse(throttleTimeMs, errorCode, errorMessage, memberId, memberEpoch,
            heartbeatIntervalMs, assignment);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeInt16(errorCode);
        writer.writeNullableString(errorMessage);
        writer.writeNullableString(memberId);
        writer.writeInt32(memberEpoch);
        writer.writeInt32(heartbeatIntervalMs);
        if (assignment == null) {
            writer.writeInt8((byte) -1);
        } else {
            writer.writeInt8((byte) 1);
            writer.writeArray(assignment, (w, tp) -> tp.write(w));
            writer.writeTaggedFields();
        }
        writer.writeTaggedFields();
    }
}
