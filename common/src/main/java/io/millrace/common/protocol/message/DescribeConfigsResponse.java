package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeConfigs response (api key 32).
 *
 * <pre>
 * DescribeConfigsResponse => throttle_time_ms [results] TAG_BUFFER
 *   results => error_code error_message resource_type resource_name [configs] TAG_BUFFER
 *     error_code    => INT16
 *     error_message => NULLABLE_STRING
 *     resource_type => INT8
 *     resource_name => STRING
 *     configs => name value read_only config_source is_sensitive [synonyms] config_type documentation TAG_BUFFER
 *       name          => STRING
 *       value         => NULLABLE_STRING
 *       read_only     => BOOLEAN
 *       config_source => INT8
 *       is_sensitive  => BOOLEAN
 *       synonyms      => name value source TAG_BUFFER   (STRING, NULLABLE_STRING, INT8)
 *       config_type   => INT8              (v3+)
 *       documentation => NULLABLE_STRING   (v3+)
 * </pre>
 *
 * Version 1 (the oldest supported) has the config source and synonyms. Version 2 has the same layout.
 * Version 3 adds the type and documentation, version 4 is flexible.
 */
public record DescribeConfigsResponse(int throttleTimeMs, List<Result> results) implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_CONFIGS;

    /** Kafka's config sources: where a value comes from. */
    public static final byte SOURCE_UNKNOWN = 0;
    public static final byte SOURCE_TOPIC_CONFIG = 1;
    public static final byte SOURCE_STATIC_BROKER_CONFIG = 4;
    public static final byte SOURCE_DEFAULT_CONFIG = 5;

    /** Kafka's config types. */
    public static final byte TYPE_UNKNOWN = 0;
    public static final byte TYPE_BOOLEAN = 1;
    public static final byte TYPE_STRING = 2;
    public static final byte TYPE_INT = 3;
    public static final byte TYPE_SHORT = 4;
    public static final byte TYPE_LONG = 5;
    public static final byte TYPE_DOUBLE = 6;
    public static final byte TYPE_LIST = 7;
    public static final byte TYPE_CLASS = 8;
    public static final byte TYPE_PASSWORD = 9;

    /** One resource's answer: an error, or its settings. */
    public record Result(short errorCode, String errorMessage, byte resourceType, String resourceName, List<Entry> configs) {

        public Result {
            configs = List.copyOf(configs);
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static Result read(ProtocolReader reader, short version) {
            short errorCode = reader.readInt16();
            String errorMessage = reader.readNullableString();
            byte type = reader.readInt8();
            String name = reader.readString();
            List<Entry> configs = reader.readArray(r -> Entry.read(r, version), 5);
            reader.readTaggedFields();
            return new Result(errorCode, errorMessage, type, name, configs);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeInt16(errorCode);
            writer.writeNullableString(errorMessage);
            writer.writeInt8(resourceType);
            writer.writeString(resourceName);
            writer.writeArray(configs, (w, c) -> c.write(w, version));
            writer.writeTaggedFields();
        }
    }

    /** One setting: its value, where the value comes from, and the settings it stands for (synonyms). */
    public record Entry(String name, String value, boolean readOnly, byte source, boolean sensitive, List<Synonym> synonyms,
                        byte type, String documentation) {

        public Entry {
            synonyms = List.copyOf(synonyms);
        }

        private static Entry read(ProtocolReader reader, short version) {
            String name = reader.readString();
            String value = reader.readNullableString();
            boolean readOnly = reader.readBool();
            byte source = reader.readInt8();
            boolean sensitive = reader.readBool();
            List<Synonym> synonyms = reader.readArray(Synonym::read, 3);
            byte type = version >= 3 ? reader.readInt8() : TYPE_UNKNOWN;
            String documentation = version >= 3 ? reader.readNullableString() : "";   // Kafka's default before v3
            reader.readTaggedFields();
            return new Entry(name, value, readOnly, source, sensitive, synonyms, type, documentation);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(name);
            writer.writeNullableString(value);
            writer.writeBool(readOnly);
            writer.writeInt8(source);
            writer.writeBool(sensitive);
            writer.writeArray(synonyms, (w, s) -> s.write(w));
            if (version >= 3) {
                writer.writeInt8(type);
                writer.writeNullableString(documentation);
            }
            writer.writeTaggedFields();
        }
    }

    /** A setting that sets the same thing, in the order of precedence (the topic's, then the broker's). */
    public record Synonym(String name, String value, byte source) {

        private static Synonym read(ProtocolReader reader) {
            Synonym synonym = new Synonym(reader.readString(), reader.readNullableString(), reader.readInt8());
            reader.readTaggedFields();
            return synonym;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeNullableString(value);
            writer.writeInt8(source);
            writer.writeTaggedFields();
        }
    }

    public DescribeConfigsResponse {
        results = List.copyOf(results);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeConfigsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        List<Result> results = reader.readArray(r -> Result.read(r, version), 6);
        reader.readTaggedFields();
        return new DescribeConfigsResponse(throttleTimeMs, results);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(results, (w, r) -> r.write(w, version));
        writer.writeTaggedFields();
    }
}
