package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeTransactions response (api key 65): one entry per transactional id asked about.
 *
 * <pre>
 * DescribeTransactionsResponse => throttle_time_ms [transaction_states] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   transaction_states => error_code transactional_id transaction_state transaction_timeout_ms
 *                         transaction_start_time_ms producer_id producer_epoch [topics] TAG_BUFFER
 *     error_code                => INT16
 *     transactional_id          => COMPACT_STRING
 *     transaction_state         => COMPACT_STRING   (e.g. "Empty", "Ongoing", "PrepareCommit")
 *     transaction_timeout_ms    => INT32
 *     transaction_start_time_ms => INT64
 *     producer_id               => INT64
 *     producer_epoch            => INT16
 *     topics => topic [partitions] TAG_BUFFER     (the partitions in the transaction, still without a marker)
 *       topic      => COMPACT_STRING
 *       partitions => INT32
 * </pre>
 *
 * Version 0, the only one Kafka defines, is supported; it is flexible.
 */
public record DescribeTransactionsResponse(int throttleTimeMs, List<TransactionState> transactionStates)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_TRANSACTIONS;

    /** One transactional id's transaction, or the error that kept it from being described. */
    public record TransactionState(short errorCode, String transactionalId, String state, int timeoutMs, long startTimeMs,
                                   long producerId, short producerEpoch, List<Topic> topics) {

        public TransactionState {
            topics = List.copyOf(topics);
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static TransactionState read(ProtocolReader reader) {
            short errorCode = reader.readInt16();
            String transactionalId = reader.readString();
            String state = reader.readString();
            int timeoutMs = reader.readInt32();
            long startTimeMs = reader.readInt64();
            long producerId = reader.readInt64();
            short producerEpoch = reader.readInt16();
            List<Topic> topics = reader.readArray(Topic::read, 3);
            reader.readTaggedFields();
            return new TransactionState(errorCode, transactionalId, state, timeoutMs, startTimeMs, producerId, producerEpoch,
                topics);
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt16(errorCode);
            writer.writeString(transactionalId);
            writer.writeString(state);
            writer.writeInt32(timeoutMs);
            writer.writeInt64(startTimeMs);
            writer.writeInt64(producerId);
            writer.writeInt16(producerEpoch);
            writer.writeArray(topics, (w, t) -> t.write(w));
            writer.writeTaggedFields();
        }
    }

    /** The partitions of one topic in the transaction. */
    public record Topic(String name, List<Integer> partitions) {

        public Topic {
            partitions = List.copyOf(partitions);
        }

        private static Topic read(ProtocolReader reader) {
            String name = reader.readString();
            List<Integer> partitions = reader.readInt32Array();
            reader.readTaggedFields();
            return new Topic(name, partitions);
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeInt32Array(partitions);
            writer.writeTaggedFields();
        }
    }

    public DescribeTransactionsResponse {
        transactionStates = List.copyOf(transactionStates);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeTransactionsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        List<TransactionState> states = reader.readArray(TransactionState::read, 28);
        reader.readTaggedFields();
        return new DescribeTransactionsResponse(throttleTimeMs, states);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(transactionStates, (w, s) -> s.write(w));
        writer.writeTaggedFields();
    }
}
