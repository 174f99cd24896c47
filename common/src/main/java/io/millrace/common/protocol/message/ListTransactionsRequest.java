package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * ListTransactions request (api key 66): the transactions a broker coordinates, filtered.
 *
 * <pre>
 * ListTransactionsRequest => [state_filters] [producer_id_filters] duration_filter transactional_id_pattern TAG_BUFFER
 *   state_filters            => STRING
 *   producer_id_filters      => INT64
 *   duration_filter          => INT64             (v1+; -1 for any)
 *   transactional_id_pattern => NULLABLE_STRING   (v2+; a regular expression, null or empty for any)
 * </pre>
 *
 * Every version is flexible.
 */
public record ListTransactionsRequest(List<String> stateFilters, List<Long> producerIdFilters, long durationFilter,
                                      String transactionalIdPattern) implements ApiMessage {

    private static final ApiKey API = ApiKey.LIST_TRANSACTIONS;
    public static final short FIRST_DURATION_VERSION = 1;
    public static final short FIRST_PATTERN_VERSION = 2;

    public ListTransactionsRequest {
        stateFilters = List.copyOf(stateFilters);
        producerIdFilters = List.copyOf(producerIdFilters);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static ListTransactionsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<String> states = reader.readStringArray();
        int count = reader.readArrayLength(8);
        List<Long> producerIds = new ArrayList<>(Math.max(count, 0));
        for (int i = 0; i < count; i++) {
            producerIds.add(reader.readInt64());
        }
        long duration = version >= FIRST_DURATION_VERSION ? reader.readInt64() : -1L;
        String pattern = version >= FIRST_PATTERN_VERSION ? reader.readNullableString() : null;
        reader.readTaggedFields();
        return new ListTransactionsRequest(states, producerIds, duration, pattern);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeStringArray(stateFilters);
        writer.writeArray(producerIdFilters, ProtocolWriter::writeInt64);
        if (version >= FIRST_DURATION_VERSION) {
            writer.writeInt64(durationFilter);
        }
        if (version >= FIRST_PATTERN_VERSION) {
            writer.writeNullableString(transactionalIdPattern);
        }
        writer.writeTaggedFields();
    }
}
