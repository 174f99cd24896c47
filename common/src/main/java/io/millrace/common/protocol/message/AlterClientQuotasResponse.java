package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * AlterClientQuotas response (api key 49): one result per entity.
 *
 * <pre>
 * AlterClientQuotasResponse => throttle_time_ms [entries] TAG_BUFFER
 *   entries => error_code error_message [entity] TAG_BUFFER   entity: {@link ClientQuotaEntity}
 * </pre>
 */
public record AlterClientQuotasResponse(int throttleTimeMs, List<Entry> entries) implements ApiMessage {

    private static final ApiKey API = ApiKey.ALTER_CLIENT_QUOTAS;

    /** What became of one entity's changes. */
    public record Entry(short errorCode, String errorMessage, List<ClientQuotaEntity> entity) {

        public Entry {
            entity = List.copyOf(entity);
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static Entry read(ProtocolReader reader) {
            Entry entry = new Entry(reader.readInt16(), reader.readNullableString(), ClientQuotaEntity.readList(reader));
            reader.readTaggedFields();
            return entry;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt16(errorCode);
            writer.writeNullableString(errorMessage);
            ClientQuotaEntity.writeList(writer, entity);
            writer.writeTaggedFields();
        }
    }

    public AlterClientQuotasResponse {
        entries = List.copyOf(entries);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static AlterClientQuotasResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        AlterClientQuotasResponse response = new AlterClientQuotasResponse(reader.readInt32(), reader.readArray(Entry::read, 4));
        reader.readTaggedFields();
        return response;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(entries, (w, e) -> e.write(w));
        writer.writeTaggedFields();
    }
}
