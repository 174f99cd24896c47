package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeClientQuotas response (api key 48).
 *
 * <pre>
 * DescribeClientQuotasResponse => throttle_time_ms error_code error_message [entries] TAG_BUFFER
 *   entries => [entity] [values] TAG_BUFFER        a null array with an error
 *     entity => entity_type entity_name TAG_BUFFER ({@link ClientQuotaEntity})
 *     values => key value TAG_BUFFER
 *       key   => STRING                            e.g. producer_byte_rate
 *       value => FLOAT64
 * </pre>
 */
public record DescribeClientQuotasResponse(int throttleTimeMs, short errorCode, String errorMessage, List<Entry> entries)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_CLIENT_QUOTAS;

    /** One entity and its quotas. */
    public record Entry(List<ClientQuotaEntity> entity, List<Value> values) {

        public Entry {
            entity = List.copyOf(entity);
            values = List.copyOf(values);
        }

        private static Entry read(ProtocolReader reader) {
            Entry entry = new Entry(ClientQuotaEntity.readList(reader), reader.readArray(Value::read, 9));
            reader.readTaggedFields();
            return entry;
        }

        private void write(ProtocolWriter writer) {
            ClientQuotaEntity.writeList(writer, entity);
            writer.writeArray(values, (w, v) -> v.write(w));
            writer.writeTaggedFields();
        }
    }

    /** One quota of the entity. */
    public record Value(String key, double value) {

        private static Value read(ProtocolReader reader) {
            Value value = new Value(reader.readString(), reader.readFloat64());
            reader.readTaggedFields();
            return value;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(key);
            writer.writeFloat64(value);
            writer.writeTaggedFields();
        }
    }

    /** {@code entries} null goes with an error. */
    public DescribeClientQuotasResponse {
        entries = entries == null ? null : List.copyOf(entries);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeClientQuotasResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        DescribeClientQuotasResponse response = new DescribeClientQuotasResponse(reader.readInt32(), reader.readInt16(),
            reader.readNullableString(), reader.readNullableArray(Entry::read, 2));
        reader.readTaggedFields();
        return response;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeInt16(errorCode);
        writer.writeNullableString(errorMessage);
        writer.writeNullableArray(entries, (w, e) -> e.write(w));
        writer.writeTaggedFields();
    }
}
