package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * AlterClientQuotas request (api key 49): set or remove quotas of entities.
 *
 * <pre>
 * AlterClientQuotasRequest => [entries] validate_only TAG_BUFFER
 *   entries => [entity] [ops] TAG_BUFFER
 *     entity => entity_type entity_name TAG_BUFFER ({@link ClientQuotaEntity})
 *     ops    => key value remove TAG_BUFFER
 *       key    => STRING
 *       value  => FLOAT64
 *       remove => BOOLEAN
 *   validate_only => BOOLEAN
 * </pre>
 *
 * Version 1 is flexible.
 */
public record AlterClientQuotasRequest(List<Entry> entries, boolean validateOnly) implements ApiMessage {

    private static final ApiKey API = ApiKey.ALTER_CLIENT_QUOTAS;

    /** One entity and the changes to its quotas. */
    public record Entry(List<ClientQuotaEntity> entity, List<Op> ops) {

        public Entry {
            entity = List.copyOf(entity);
            ops = List.copyOf(ops);
        }

        private static Entry read(ProtocolReader reader) {
            Entry entry = new Entry(ClientQuotaEntity.readList(reader), reader.readArray(Op::read, 10));
            reader.readTaggedFields();
            return entry;
        }

        private void write(ProtocolWriter writer) {
            ClientQuotaEntity.writeList(writer, entity);
            writer.writeArray(ops, (w, o) -> o.write(w));
            writer.writeTaggedFields();
        }
    }

    /** Set {@code key} to {@code value}, or remove it. */
    public record Op(String key, double value, boolean remove) {

        private static Op read(ProtocolReader reader) {
            Op op = new Op(reader.readString(), reader.readFloat64(), reader.readBool());
            reader.readTaggedFields();
            return op;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(key);
            writer.writeFloat64(value);
            writer.writeBool(remove);
            writer.writeTaggedFields();
        }
    }

    public AlterClientQuotasRequest {
        entries = List.copyOf(entries);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static AlterClientQuotasRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        AlterClientQuotasRequest request = new AlterClientQuotasRequest(reader.readArray(Entry::read, 2), reader.readBool());
        reader.readTaggedFields();
        return request;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeArray(entries, (w, e) -> e.write(w));
        writer.writeBool(validateOnly);
        writer.writeTaggedFields();
    }
}
