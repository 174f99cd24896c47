package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DeleteRecordsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DeleteRecordsResponseTest extends CompatibilityContract<DeleteRecordsResponseData, DeleteRecordsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DELETE_RECORDS);
    }

    public DeleteRecordsResponseTest(short version) {
        super(version);
    }

    @Override
    protected DeleteRecordsResponseData kafkaSample() {
        DeleteRecordsResponseData.DeleteRecordsPartitionResultCollection partitions =
            new DeleteRecordsResponseData.DeleteRecordsPartitionResultCollection();
        partitions.add(new DeleteRecordsResponseData.DeleteRecordsPartitionResult().setPartitionIndex(0).setLowWatermark(42L)
            .setErrorCode((short) 0));
        partitions.add(new DeleteRecordsResponseData.DeleteRecordsPartitionResult().setPartitionIndex(3).setLowWatermark(-1L)
            .setErrorCode((short) 1));
        DeleteRecordsResponseData.DeleteRecordsTopicResultCollection topics = new DeleteRecordsResponseData.DeleteRecordsTopicResultCollection();
        topics.add(new DeleteRecordsResponseData.DeleteRecordsTopicResult().setName(KafkaSamples.TOPIC).setPartitions(partitions));
        return new DeleteRecordsResponseData().setThrottleTimeMs(9).setTopics(topics);
    }

    @Override
    protected DeleteRecordsResponseData kafkaRead(ByteBuffer buffer) {
        return new DeleteRecordsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DeleteRecordsResponse millraceRead(ByteBuffer buffer) {
        return DeleteRecordsResponse.parse(buffer, version);
    }

    @Override
    protected DeleteRecordsResponse toMillrace(DeleteRecordsResponseData k) {
        return new DeleteRecordsResponse(k.throttleTimeMs(), k.topics().stream()
            .map(t -> new DeleteRecordsResponse.DeleteRecordsTopicResult(t.name(), t.partitions().stream()
                .map(p -> new DeleteRecordsResponse.DeleteRecordsPartitionResult(p.partitionIndex(), p.lowWatermark(), p.errorCode()))
                .toList()))
            .toList());
    }
}
