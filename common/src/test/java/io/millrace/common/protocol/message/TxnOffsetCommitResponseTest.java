package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.TxnOffsetCommitResponseData;
import org.apache.kafka.common.message.TxnOffsetCommitResponseData.TxnOffsetCommitResponsePartition;
import org.apache.kafka.common.message.TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class TxnOffsetCommitResponseTest extends CompatibilityContract<TxnOffsetCommitResponseData, TxnOffsetCommitResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.TXN_OFFSET_COMMIT);
    }

    public TxnOffsetCommitResponseTest(short version) {
        super(version);
    }

    @Override
    protected TxnOffsetCommitResponseData kafkaSample() {
        return new TxnOffsetCommitResponseData().setThrottleTimeMs(1).setTopics(List.of(
            new TxnOffsetCommitResponseTopic().setName("orders").setPartitions(List.of(
                new TxnOffsetCommitResponsePartition().setPartitionIndex(0).setErrorCode((short) 0),
                new TxnOffsetCommitResponsePartition().setPartitionIndex(2).setErrorCode(Errors.ILLEGAL_GENERATION.code())))));
    }

    @Override
    protected TxnOffsetCommitResponseData kafkaRead(ByteBuffer buffer) {
        return new TxnOffsetCommitResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected TxnOffsetCommitResponse millraceRead(ByteBuffer buffer) {
        return TxnOffsetCommitResponse.parse(buffer, version);
    }

    @Override
    protected TxnOffsetCommitResponse toMillrace(TxnOffsetCommitResponseData k) {
        return new TxnOffsetCommitResponse(k.throttleTimeMs(), k.topics().stream()
            .map(t -> new TxnOffsetCommitResponse.Topic(t.name(), t.partitions().stream()
                .map(p -> new TxnOffsetCommitResponse.Partition(p.partitionIndex(), p.errorCode())).toList()))
            .toList());
    }
}
