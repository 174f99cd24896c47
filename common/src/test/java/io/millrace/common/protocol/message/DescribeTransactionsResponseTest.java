package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeTransactionsResponseData;
import org.apache.kafka.common.message.DescribeTransactionsResponseData.TopicData;
import org.apache.kafka.common.message.DescribeTransactionsResponseData.TopicDataCollection;
import org.apache.kafka.common.message.DescribeTransactionsResponseData.TransactionState;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeTransactionsResponseTest
    extends CompatibilityContract<DescribeTransactionsResponseData, DescribeTransactionsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_TRANSACTIONS);
    }

    public DescribeTransactionsResponseTest(short version) {
        super(version);
    }

    @Override
    protected DescribeTransactionsResponseData kafkaSample() {
        return new DescribeTransactionsResponseData().setThrottleTimeMs(5).setTransactionStates(List.of(
            new TransactionState().setErrorCode((short) 0).setTransactionalId("payments-1").setTransactionState("Ongoing")
                .setTransactionTimeoutMs(60_000).setTransactionStartTimeMs(1_700_000_000_000L).setProducerId(4_000L)
                .setProducerEpoch((short) 3).setTopics(new TopicDataCollection(List.of(
                    new TopicData().setTopic("orders").setPartitions(List.of(0, 2)),
                    new TopicData().setTopic("ledger").setPartitions(List.of(5))).iterator())),
            new TransactionState().setErrorCode(Errors.TRANSACTIONAL_ID_NOT_FOUND.code()).setTransactionalId("refunds-7")
                .setTransactionState("").setTransactionTimeoutMs(0).setTransactionStartTimeMs(-1L).setProducerId(-1L)
                .setProducerEpoch((short) -1)));
    }

    @Override
    protected DescribeTransactionsResponseData kafkaRead(ByteBuffer buffer) {
        return new DescribeTransactionsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeTransactionsResponse millraceRead(ByteBuffer buffer) {
        return DescribeTransactionsResponse.parse(buffer, version);
    }

    @Override
    protected DescribeTransactionsResponse toMillrace(DescribeTransactionsResponseData k) {
        return new DescribeTransactionsResponse(k.throttleTimeMs(), k.transactionStates().stream()
            .map(s -> new DescribeTransactionsResponse.TransactionState(s.errorCode(), s.transactionalId(), s.transactionState(),
                s.transactionTimeoutMs(), s.transactionStartTimeMs(), s.producerId(), s.producerEpoch(), s.topics().stream()
                    .map(t -> new DescribeTransactionsResponse.Topic(t.topic(), t.partitions())).toList()))
            .toList());
    }
}
