package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnPartitionResult;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnPartitionResultCollection;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResult;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnTopicResultCollection;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class AddPartitionsToTxnResponseTest
    extends CompatibilityContract<AddPartitionsToTxnResponseData, AddPartitionsToTxnResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.ADD_PARTITIONS_TO_TXN);
    }

    public AddPartitionsToTxnResponseTest(short version) {
        super(version);
    }

    @Override
    protected AddPartitionsToTxnResponseData kafkaSample() {
        return new AddPartitionsToTxnResponseData().setThrottleTimeMs(6).setResultsByTopicV3AndBelow(
            new AddPartitionsToTxnTopicResultCollection(List.of(
                new AddPartitionsToTxnTopicResult().setName("orders").setResultsByPartition(
                    new AddPartitionsToTxnPartitionResultCollection(List.of(
                        new AddPartitionsToTxnPartitionResult().setPartitionIndex(0)
                            .setPartitionErrorCode(Errors.CONCURRENT_TRANSACTIONS.code()),
                        new AddPartitionsToTxnPartitionResult().setPartitionIndex(2)
                            .setPartitionErrorCode(Errors.PRODUCER_FENCED.code())).iterator())),
                new AddPartitionsToTxnTopicResult().setName("ledger").setResultsByPartition(
                    new AddPartitionsToTxnPartitionResultCollection())).iterator()));
    }

    @Override
    protected AddPartitionsToTxnResponseData kafkaRead(ByteBuffer buffer) {
        return new AddPartitionsToTxnResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected AddPartitionsToTxnResponse millraceRead(ByteBuffer buffer) {
        return AddPartitionsToTxnResponse.parse(buffer, version);
    }

    @Override
    protected AddPartitionsToTxnResponse toMillrace(AddPartitionsToTxnResponseData k) {
        return new AddPartitionsToTxnResponse(k.throttleTimeMs(), k.resultsByTopicV3AndBelow().stream()
            .map(t -> new AddPartitionsToTxnResponse.TopicResult(t.name(), t.resultsByPartition().stream()
                .map(p -> new AddPartitionsToTxnResponse.PartitionResult(p.partitionIndex(), p.partitionErrorCode())).toList()))
            .toList());
    }
}
