package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeClientQuotas request (api key 48): the quotas of the entities matching a filter.
 *
 * <pre>
 * DescribeClientQuotasRequest => [components] strict TAG_BUFFER
 *   components => entity_type match_type match TAG_BUFFER
 *     entity_type => STRING
 *     match_type  => INT8              0 the name in match, 1 the default entity, 2 any
 *     match       => NULLABLE_STRING
 *   strict => BOOLEAN                   only entities with no other component
 * </pre>
 *
 * Version 1 is flexible.
 */
public record DescribeClientQuotasRequest(List<Component> components, boolean strict) implements ApiMessage {

    public static final byte MATCH_EXACT = 0;
    public static final byte MATCH_DEFAULT = 1;
    public static final byte MATCH_ANY = 2;

    private static final ApiKey API = ApiKey.DESCRIBE_CLIENT_QUOTAS;

    /** One condition on the entity's parts. */
    public record Component(String entityType, byte matchType, String match) {

        private static Component read(ProtocolReader reader) {
            Component component = new Component(reader.readString(), reader.readInt8(), reader.readNullableString());
            reader.readTaggedFields();
            return component;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(entityType);
            writer.writeInt8(matchType);
            writer.writeNullableString(match);
            writer.writeTaggedFields();
        }
    }

    public DescribeClientQuotasRequest {
        components = List.copyOf(components);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeClientQuotasRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        DescribeClientQuotasRequest request = new DescribeClientQuotasRequest(reader.readArray(Component::read, 3),
            reader.readBool());
        reader.readTaggedFields();
        return request;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeArray(components, (w, c) -> c.write(w));
        writer.writeBool(strict);
        writer.writeTaggedFields();
    }
}
