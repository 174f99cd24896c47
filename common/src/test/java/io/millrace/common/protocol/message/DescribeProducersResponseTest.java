package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeProducersResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeProducersResponseTest extends CompatibilityContract<DescribeProducersResponseData, DescribeProducersResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_PRODUCERS);
    }

    public DescribeProducersResponseTest(short version) {
        super(version);
    }

    @Override
    protected DescribeProducersResponseData kafkaSample() {
        DescribeProducersResponseData.ProducerState producer = new DescribeProducersResponseData.ProducerState()
            .setProducerId(4_000L).setProducerEpoch(2).setLastSequence(99).setLastTimestamp(1_700_000_000_000L)
            .setCoordinatorEpoch(-1).setCurrentTxnStartOffset(-1L);
        return new DescribeProducersResponseData().setThrottleTimeMs(7).setTopics(List.of(
            new DescribeProducersResponseData.TopicResponse().setName(KafkaSamples.TOPIC).setPartitions(List.of(
                new DescribeProducersResponseData.PartitionResponse().setPartitionIndex(0).setErrorCode((short) 0)
                    .setErrorMessage(null).setActiveProducers(List.of(producer)),
                new DescribeProducersResponseData.PartitionResponse().setPartitionIndex(1)
                    .setErrorCode(Errors.NOT_LEADER_OR_FOLLOWER.code()).setErrorMessage("not the leader")
                    .setActiveProducers(List.of())))));
    }

    @Override
    protected DescribeProducersResponseData kafkaRead(ByteBuffer buffer) {
        return new DescribeProducersResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeProducersResponse millraceRead(ByteBuffer buffer) {
        return DescribeProducersResponse.parse(buffer, version);
    }

    @Override
    protected DescribeProducersResponse toMillrace(DescribeProducersResponseData k) {
        return new DescribeProducersResponse(k.throttleTimeMs(), k.topics().stream()
            .map(t -> new DescribeProducersResponse.TopicResponse(t.name(), t.partitions().stream()
                .map(p -> new DescribeProducersResponse.PartitionResponse(p.partitionIndex(), p.errorCode(), p.errorMessage(),
                    p.activeProducers().stream().map(a -> new DescribeProducersResponse.ProducerState(a.producerId(),
                        a.producerEpoch(), a.lastSequence(), a.lastTimestamp(), a.coordinatorEpoch(), a.currentTxnStartOffset()))
                        .toList()))
                .toList()))
            .toList());
    }
}
