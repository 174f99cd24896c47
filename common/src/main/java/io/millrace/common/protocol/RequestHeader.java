package io.millrace.common.protocol;

import io.millrace.common.protocol.types.BufferWriter;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;

/**
 * The header in front of every request body.
 *
 * <pre>
 * RequestHeader v1 => api_key api_version correlation_id client_id
 *   api_key        => INT16
 *   api_version    => INT16
 *   correlation_id => INT32
 *   client_id      => NULLABLE_STRING   (int16 length, even in v2)
 * RequestHeader v2 => v1 fields, then TAG_BUFFER
 * </pre>
 *
 * Version 2 is used with flexible request versions. The client id keeps its int16 length in both
 * versions so that any broker can read the header of any request, including an ApiVersions
 * request of a version it does not know. Version 0 (no client id) was only used by
 * ControlledShutdown v0 and is not supported.
 *
 * <p>The api key and version are kept as raw numbers: a header with an unknown api key or an
 * unsupported version still parses, so the broker can answer (ApiVersions) or log it.
 *
 * <p>Example, Metadata v1 with correlation id 7 and client id "c":
 * {@code 00 03 | 00 01 | 00 00 00 07 | 00 01 63}.
 */
public record RequestHeader(short apiKey, short apiVersion, int correlationId, String clientId) {

    public RequestHeader(ApiKey apiKey, short apiVersion, int correlationId, String clientId) {
        this(apiKey.id(), apiVersion, correlationId, clientId);
    }

    /**
     * Reads a header at the buffer's position and leaves the position at the body. The header is
     * version 2 when the api key is known and the version is flexible for it (also above the
     * supported range, as Kafka does), otherwise version 1.
     */
    public static RequestHeader parse(ByteBuffer buffer) {
        ProtocolReader reader = new ProtocolReader(buffer, false);
        RequestHeader header = new RequestHeader(reader.readInt16(), reader.readInt16(), reader.readInt32(),
            reader.readClassicNullableString());
        if (header.headerVersion() >= 2) {
            new ProtocolReader(buffer, true).readTaggedFields();
        }
        return header;
    }

    /** The api, or null when Millrace does not serve this api key. */
    public ApiKey api() {
        return ApiKey.forId(apiKey);
    }

    /** 2 for a flexible version of a known api, 1 otherwise. */
    public short headerVersion() {
        ApiKey api = api();
        return api == null ? 1 : api.requestHeaderVersion(apiVersion);
    }

    /** The response header version that answers this request. */
    public short responseHeaderVersion() {
        ApiKey api = api();
        return api == null ? 0 : api.responseHeaderVersion(apiVersion);
    }

    public void write(ProtocolWriter writer) {
        writer.writeInt16(apiKey);
        writer.writeInt16(apiVersion);
        writer.writeInt32(correlationId);
        writer.writeClassicNullableString(clientId);
        if (headerVersion() >= 2) {
            writer.writeUnsignedVarint(0);
        }
    }

    public int sizeInBytes() {
        int clientIdSize = clientId == null ? 0 : ProtocolWriter.utf8Length(clientId);
        return 2 + 2 + 4 + 2 + clientIdSize + (headerVersion() >= 2 ? 1 : 0);
    }

    public void writeTo(ByteBuffer buffer) {
        write(new BufferWriter(buffer, false));
    }
}
