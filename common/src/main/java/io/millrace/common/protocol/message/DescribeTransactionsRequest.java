package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeTransactions request (api key 65): the state of the transactions of the given
 * transactional ids, asked of their coordinator (kafka-transactions describe).
 *
 * <pre>
 * DescribeTransactionsRequest => [transactional_ids] TAG_BUFFER
 *   transactional_ids => COMPACT_STRING   (none: an empty answer)
 * </pre>
 *
 * Version 0, the only one Kafka defines, is supported; it is flexible.
 */
public record DescribeTransactionsRequest(List<String> transactionalIds) implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_TRANSACTIONS;

    public DescribeTransactionsRequest {
        transactionalIds = List.copyOf(transactionalIds);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeTransactionsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<String> transactionalIds = reader.readStringArray();
        reader.readTaggedFields();
        return new DescribeTransactionsRequest(transactionalIds);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeStringArray(transactionalIds);
        writer.writeTaggedFields();
    }
}
