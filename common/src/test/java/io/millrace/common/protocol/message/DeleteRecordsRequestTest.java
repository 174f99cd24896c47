package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DeleteRecordsRequestTest extends CompatibilityContract<DeleteRecordsRequestData, DeleteRecordsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DELETE_RECORDS);
    }

    public DeleteRecordsRequestTest(short version) {
        super(version);
    }

    @Override
    protected DeleteRecordsRequestData kafkaSample() {
        return new DeleteRecordsRequestData().setTimeoutMs(15_000).setTopics(List.of(
            new DeleteRecordsRequestData.DeleteRecordsTopic().setName(KafkaSamples.TOPIC).setPartitions(List.of(
                new DeleteRecordsRequestData.DeleteRecordsPartition().setPartitionIndex(0).setOffset(1_000_000_000_000L),
                new DeleteRecordsRequestData.DeleteRecordsPartition().setPartitionIndex(3).setOffset(-1L))),
            new DeleteRecordsRequestData.DeleteRecordsTopic().setName("other").setPartitions(List.of())));
    }

    @Override
    protected DeleteRecordsRequestData kafkaRead(ByteBuffer buffer) {
        return new DeleteRecordsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DeleteRecordsRequest millraceRead(ByteBuffer buffer) {
        return DeleteRecordsRequest.parse(buffer, version);
    }

    @Override
    protected DeleteRecordsRequest toMillrace(DeleteRecordsRequestData k) {
        return new DeleteRecordsRequest(k.topics().stream()
            .map(t -> new DeleteRecordsRequest.DeleteRecordsTopic(t.name(), t.partitions().stream()
                .map(p -> new DeleteRecordsRequest.DeleteRecordsPartition(p.partitionIndex(), p.offset())).toList()))
            .toList(), k.timeoutMs());
    }
}
