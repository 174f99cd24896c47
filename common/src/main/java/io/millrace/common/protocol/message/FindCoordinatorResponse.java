package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * FindCoordinator response (api key 10).
 *
 * <pre>
 * FindCoordinatorResponse v0-3 => throttle_time_ms error_code error_message node_id host port TAG_BUFFER
 * FindCoordinatorResponse v4+  => throttle_time_ms [coordinators] TAG_BUFFER
 *   throttle_time_ms => INT32             (v1+, default 0)
 *   error_code       => INT16
 *   error_message    => NULLABLE_STRING   (v1+, default "" as in Kafka)
 *   node_id          => INT32
 *   host             => STRING
 *   port             => INT32
 *   coordinators => key node_id host port error_code error_message TAG_BUFFER   (v4+, one per key asked)
 * </pre>
 *
 * Version 1 adds the throttle time and the error message. Version 2 has the same layout. Version
 * 3 is flexible. Version 4 answers a batch of keys, one {@link Coordinator} each, in place of the
 * single answer's fields (which it leaves at their defaults). Versions 5 and 6 have the same layout.
 */
public record FindCoordinatorResponse(int throttleTimeMs, short errorCode, String errorMessage, int nodeId, String host,
                                      int port, List<Coordinator> coordinators) implements ApiMessage {

    private static final ApiKey API = ApiKey.FIND_COORDINATOR;

    /** The coordinator of one key (v4+). */
    public record Coordinator(String key, int nodeId, String host, int port, short errorCode, String errorMessage) {

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static Coordinator read(ProtocolReader reader) {
            Coordinator coordinator = new Coordinator(reader.readString(), reader.readInt32(), reader.readString(),
                reader.readInt32(), reader.readInt16(), reader.readNullableString());
            reader.readTaggedFields();
            return coordinator;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(key);
            writer.writeInt32(nodeId);
            writer.writeString(host);
            writer.writeInt32(port);
            writer.writeInt16(errorCode);
            writer.writeNullableString(errorMessage);
            writer.writeTaggedFields();
        }
    }

    public FindCoordinatorResponse {
        coordinators = List.copyOf(coordinators);
    }

    /** The answer to one key in the form of versions 0 to 3. */
    public static FindCoordinatorResponse single(int throttleTimeMs, short errorCode, String errorMessage, int nodeId,
                                                 String host, int port) {
        return new FindCoordinatorResponse(throttleTimeMs, errorCode, errorMessage, nodeId, host, port, List.of());
    }

    /** The answer to a batch of keys in the form of versions 4 and above. */
    public static FindCoordinatorResponse batched(int throttleTimeMs, List<Coordinator> coordinators) {
        return new FindCoordinatorResponse(throttleTimeMs, Errors.NONE.code(), "", 0, "", 0, coordinators);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static FindCoordinatorResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = version >= 1 ? reader.readInt32() : 0;
        FindCoordinatorResponse response = version >= FindCoordinatorRequest.FIRST_BATCHED_VERSION
            ? batched(throttleTimeMs, reader.readArray(Coordinator::read, 14))
            : readSingle(reader, version, throttleTimeMs);
        reader.readTaggedFields();
        return response;
    }

    private static FindCoordinatorResponse readSingle(ProtocolReader reader, short version, int throttleTimeMs) {
        short errorCode = reader.readInt16();
        String errorMessage = version >= 1 ? reader.readNullableString() : "";
        return single(throttleTimeMs, errorCode, errorMessage, reader.readInt32(), reader.readString(), reader.readInt32());
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 1) {
            writer.writeInt32(throttleTimeMs);
        }
        if (version >= FindCoordinatorRequest.FIRST_BATCHED_VERSION) {
            writer.writeArray(coordinators, (w, c) -> c.write(w));
        } else {
            writeSingle(writer, version);
        }
        writer.writeTaggedFields();
    }

    private void writeSingle(ProtocolWriter writer, short version) {
        writer.writeInt16(errorCode);
        if (version >= 1) {
            writer.writeNullableString(errorMessage);
        }
        writer.writeInt32(nodeId);
        writer.writeString(host);
        writer.writeInt32(port);
    }
}
