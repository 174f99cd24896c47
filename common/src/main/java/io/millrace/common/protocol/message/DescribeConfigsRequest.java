package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeConfigs request (api key 32).
 *
 * <pre>
 * DescribeConfigsRequest => [resources] include_synonyms include_documentation TAG_BUFFER
 *   resources => resource_type resource_name [configuration_keys] TAG_BUFFER
 *     resource_type      => INT8     (2 topic, 4 broker, 8 broker logger)
 *     resource_name      => STRING
 *     configuration_keys => NULLABLE [STRING]   (null: every key)
 *   include_synonyms      => BOOLEAN
 *   include_documentation => BOOLEAN   (v3+)
 * </pre>
 *
 * Version 1 (the oldest supported, Kafka 4.0's baseline) has include_synonyms. Version 2 has the same
 * layout. Version 3 adds include_documentation, version 4 is flexible.
 */
public record DescribeConfigsRequest(List<Resource> resources, boolean includeSynonyms, boolean includeDocumentation)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_CONFIGS;

    public static final byte TOPIC = 2;
    public static final byte BROKER = 4;
    public static final byte BROKER_LOGGER = 8;

    /** One resource whose configuration is asked for; {@code keys} null for all of them. */
    public record Resource(byte type, String name, List<String> keys) {

        public Resource {
            keys = keys == null ? null : List.copyOf(keys);
        }

        private static Resource read(ProtocolReader reader) {
            byte type = reader.readInt8();
            String name = reader.readString();
            List<String> keys = reader.readNullableArray(ProtocolReader::readString, 1);
            reader.readTaggedFields();
            return new Resource(type, name, keys);
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt8(type);
            writer.writeString(name);
            writer.writeNullableArray(keys, ProtocolWriter::writeString);
            writer.writeTaggedFields();
        }
    }

    public DescribeConfigsRequest {
        resources = List.copyOf(resources);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeConfigsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<Resource> resources = reader.readArray(Resource::read, 3);
        boolean includeSynonyms = reader.readBool();
        boolean includeDocumentation = version >= 3 && reader.readBool();
        reader.readTaggedFields();
        return new DescribeConfigsRequest(resources, includeSynonyms, includeDocumentation);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeArray(resources, (w, r) -> r.write(w));
        writer.writeBool(includeSynonyms);
        if (version >= 3) {
            writer.writeBool(includeDocumentation);
        }
        writer.writeTaggedFields();
    }
}
