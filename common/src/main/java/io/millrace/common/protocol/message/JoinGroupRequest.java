package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * JoinGroup request (api key 11): a member joins a group, or rejoins it for a rebalance, naming
 * the protocols (for consumers, the assignors) it supports with its metadata for each.
 *
 * <pre>
 * JoinGroupRequest => group_id session_timeout_ms rebalance_timeout_ms member_id group_instance_id protocol_type [protocols] reason TAG_BUFFER
 *   group_id             => STRING
 *   session_timeout_ms   => INT32
 *   rebalance_timeout_ms => INT32             (v1+, default -1: the session timeout)
 *   member_id            => STRING            ("" on a first join)
 *   group_instance_id    => NULLABLE_STRING   (v5+, default null: a dynamic member)
 *   protocol_type        => STRING            (e.g. "consumer", "connect")
 *   protocols => name metadata TAG_BUFFER
 *     name     => STRING   (e.g. "range", "cooperative-sticky")
 *     metadata => BYTES    (opaque to the coordinator: the subscription)
 *   reason               => NULLABLE_STRING   (v8+, default null)
 * </pre>
 *
 * Version 1 adds the rebalance timeout. Versions 2 and 3 have the same layout. Version 4 has the
 * same layout but a member without an id is answered MEMBER_ID_REQUIRED with one to use. Version
 * 5 adds the static member's instance id, version 6 is flexible. Version 7 has the same layout
 * (the response gains the protocol type). Version 8 adds the reason for joining, version 9 has
 * the same layout (the response may tell a static leader to skip assigning).
 *
 * <p>Protocol metadata are slices of the buffer the request was parsed from.
 */
public record JoinGroupRequest(String groupId, int sessionTimeoutMs, int rebalanceTimeoutMs, String memberId,
                               String groupInstanceId, String protocolType, List<Protocol> protocols, String reason)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.JOIN_GROUP;

    /** One protocol the member supports, with the member's metadata for it. */
    public record Protocol(String name, ByteBuffer metadata) {

        private static Protocol read(ProtocolReader reader) {
            Protocol protocol = new Protocol(reader.readString(), reader.readBytes());
            reader.readTaggedFields();
            return protocol;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeBytes(metadata);
            writer.writeTaggedFields();
        }
    }

    public JoinGroupRequest {
        protocols = List.copyOf(protocols);
    }

    /**
     * How long the coordinator waits for members to rejoin during a rebalance. Version 0 has no
     * rebalance timeout (parsed as -1), and Kafka then uses the session timeout for both.
     */
    public int effectiveRebalanceTimeoutMs() {
        return rebalanceTimeoutMs < 0 ? sessionTimeoutMs : rebalanceTimeoutMs;
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static JoinGroupRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        String groupId = reader.readString();
        int sessionTimeoutMs = reader.readInt32();
        int rebalanceTimeoutMs = version >= 1 ? reader.readInt32() : -1;
        String memberId = reader.readString();
        String groupInstanceId = version >= 5 ? reader.readNullableString() : null;
        String protocolType = reader.readString();
        List<Protocol> protocols = reader.readArray(Protocol::read, 3);
        String reason = version >= 8 ? reader.readNullableString() : null;
        reader.readTaggedFields();
        return new JoinGroupRequest(groupId, sessionTimeoutMs, rebalanceTimeoutMs, memberId, groupInstanceId, protocolType,
            protocols, reason);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeString(groupId);
        writer.writeInt32(sessionTimeoutMs);
        if (version >= 1) {
            writer.writeInt32(rebalanceTimeoutMs);
        }
        writer.writeString(memberId);
        if (version >= 5) {
            writer.writeNullableString(groupInstanceId);
        }
        writer.writeString(protocolType);
        writer.writeArray(protocols, (w, p) -> p.write(w));
        if (version >= 8) {
            writer.writeNullableString(reason);
        }
        writer.writeTaggedFields();
    }
}
