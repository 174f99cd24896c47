package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * ListTransactions response (api key 66).
 *
 * <pre>
 * ListTransactionsResponse => throttle_time_ms error_code [unknown_state_filters] [transaction_states] TAG_BUFFER
 *   transaction_states => transactional_id producer_id transaction_state TAG_BUFFER
 * </pre>
 */
public record ListTransactionsResponse(int throttleTimeMs, short errorCode, List<String> unknownStateFilters,
                                       List<TransactionState> transactionStates) implements ApiMessage {

    private static final ApiKey API = ApiKey.LIST_TRANSACTIONS;

    /** One transactional id the broker coordinates, its producer id and state. */
    public record TransactionState(String transactionalId, long producerId, String state) {

        private static TransactionState read(ProtocolReader reader) {
            TransactionState state = new TransactionState(reader.readString(), reader.readInt64(), reader.readString());
            reader.readTaggedFields();
            return state;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(transactionalId);
            writer.writeInt64(producerId);
            writer.writeString(state);
            writer.writeTaggedFields();
        }
    }

    public ListTransactionsResponse {
        unknownStateFilters = List.copyOf(unknownStateFilters);
        transactionStates = List.copyOf(transactionStates);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ListTransactionsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        ListTransactionsResponse response = new ListTransactionsResponse(reader.readInt32(), reader.readInt16(),
            reader.readStringArray(), reader.readArray(TransactionState::read, 12));
        reader.readTaggedFields();
        return response;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeInt16(errorCode);
        writer.writeStringArray(unknownStateFilters);
        writer.writeArray(transactionStates, (w, s) -> s.write(w));
        writer.writeTaggedFields();
    }
}
