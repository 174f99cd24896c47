package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * IncrementalAlterConfigs request (api key 44): changes some settings of a resource, leaving the rest.
 *
 * <pre>
 * IncrementalAlterConfigsRequest => [resources] validate_only TAG_BUFFER
 *   resources => resource_type resource_name [configs] TAG_BUFFER
 *     resource_type => INT8     (2 topic, 4 broker, 8 broker logger)
 *     resource_name => STRING   (a topic name; a broker id, or "" for the cluster-wide default)
 *     configs => name config_operation value TAG_BUFFER
 *       name             => STRING
 *       config_operation => INT8   (0 set, 1 delete, 2 append, 3 subtract)
 *       value            => NULLABLE_STRING
 *   validate_only => BOOLEAN
 * </pre>
 *
 * Version 0 has the layout above without tagged fields; version 1 is flexible.
 */
public record IncrementalAlterConfigsRequest(List<Resource> resources, boolean validateOnly) implements ApiMessage {

    private static final ApiKey API = ApiKey.INCREMENTAL_ALTER_CONFIGS;

    public static final byte SET = 0;
    public static final byte DELETE = 1;
    public static final byte APPEND = 2;
    public static final byte SUBTRACT = 3;

    /** One resource and the operations on its settings, in order. */
    public record Resource(byte type, String name, List<AlterableConfig> configs) {

        public Resource {
            configs = List.copyOf(configs);
        }

        private static Resource read(ProtocolReader reader) {
            Resource resource = new Resource(reader.readInt8(), reader.readString(),
                reader.readArray(AlterableConfig::read, 4));
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

    /** One operation on one setting; {@code value} is ignored by delete. */
    public record AlterableConfig(String name, byte operation, String value) {

        private static AlterableConfig read(ProtocolReader reader) {
            AlterableConfig config = new AlterableConfig(reader.readString(), reader.readInt8(), reader.readNullableString());
            reader.readTaggedFields();
            return config;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeInt8(operation);
            writer.writeNullableString(value);
            writer.writeTaggedFields();
        }
    }

    public IncrementalAlterConfigsRequest {
        resources = List.copyOf(resources);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static IncrementalAlterConfigsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<Resource> resources = reader.readArray(Resource::read, 3);
        boolean validateOnly = reader.readBool();
        reader.readTaggedFields();
        return new IncrementalAlterConfigsRequest(resources, validateOnly);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeArray(resources, (w, r) -> r.write(w));
        writer.writeBool(validateOnly);
        writer.writeTaggedFields();
    }
}
