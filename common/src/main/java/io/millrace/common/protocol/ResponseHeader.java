package io.millrace.common.protocol;

import io.millrace.common.protocol.types.BufferWriter;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;

/**
 * The header in front of every response body.
 *
 * <pre>
 * ResponseHeader v0 => correlation_id
 *   correlation_id => INT32
 * ResponseHeader v1 => correlation_id TAG_BUFFER
 * </pre>
 *
 * Version 1 answers flexible request versions, except that ApiVersions responses always use
 * version 0 (see {@link ApiKey#responseHeaderVersion(short)}). A response does not name its api or
 * version: the client knows them from the request it matched by correlation id.
 */
public record ResponseHeader(int correlationId) {

    public static ResponseHeader parse(ByteBuffer buffer, short headerVersion) {
        ProtocolReader reader = new ProtocolReader(buffer, headerVersion >= 1);
        ResponseHeader header = new ResponseHeader(reader.readInt32());
        reader.readTaggedFields();
        return header;
    }

    public void write(ProtocolWriter writer, short headerVersion) {
        writer.writeInt32(correlationId);
        if (headerVersion >= 1) {
            writer.writeUnsignedVarint(0);
        }
    }

    public static int sizeInBytes(short headerVersion) {
        return headerVersion >= 1 ? 5 : 4;
    }

    public void writeTo(ByteBuffer buffer, short headerVersion) {
        write(new BufferWriter(buffer, false), headerVersion);
    }
}
