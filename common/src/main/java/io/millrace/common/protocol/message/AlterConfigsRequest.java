package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * AlterConfigs request (api key 33), the older form of IncrementalAlterConfigs: the settings given
 * replace every setting the resource had, so one not named goes back to its default.
 *
 * <pre>
 * AlterConfigsRequest => [resources] validate_only TAG_BUFFER
 *   resources => resource_type resource_name [configs] TAG_BUFFER
 *     resource_type => INT8     (2 topic, 4 broker, 8 broker logger)
 *     resource_name => STRING
 *     configs => name value TAG_BUFFER
 *       name  => STRING
 *       value => NULLABLE_STRING
 *   validate_only => BOOLEAN
 * </pre>
 *
 * Versions 0 and 1 have the layout above without tagged fields; version 2 is flexible.
 */
public record AlterConfigsRequest(List<Resource> resources, boolean validateOnly) implements ApiMessage {

    private static final ApiKey API = ApiKey.ALTER_CONFIGS;

    /** One resource and the whole set of settings it is to have. */
    public record Resource(byte type, String name, List<AlterableConfig> configs) {

        public Resource {
            configs = List.copyOf(configs);
        }

        private static Resource read(ProtocolReader reader) {
            Resource resource = new Resource(reader.readInt8(), reader.readString(),
                reader.readArray(AlterableConfig::read, 3));
            reader.readTaggedFields();
            return resource;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt8(type);
            writer.writeString(name);
            writer.writeArray(configs, (w, c) -> c.write(w));
            writer.writeTaggedFields();
        }
    }

    public record AlterableConfig(String name, String value) {

        private static AlterableConfig read(ProtocolReader reader) {
            AlterableConfig config = new AlterableConfig(reader.readString(), reader.readNullableString());
            reader.readTaggedFields();
            return config;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeNullableString(value);
            writer.writeTaggedFields();
        }
    }

    public AlterConfigsRequest {
        resources = List.copyOf(resources);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static AlterConfigsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<Resource> resources = reader.readArray(Resource::read, 3);
        boolean validateOnly = reader.readBool();
        reader.readTaggedFields();
        return new AlterConfigsRequest(resources, validateOnly);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeArray(resources, (w, r) -> r.write(w));
        writer.writeBool(validateOnly);
        writer.writeTaggedFields();
    }
}
