package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ListPartitionReassignmentsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ListPartitionReassignmentsRequestTest extends CompatibilityContract<ListPartitionReassignmentsRequestData, ListPartitionReassignmentsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.LIST_PARTITION_REASSIGNMENTS);
    }

    public ListPartitionReassignmentsRequestTest(short version) {
        super(version);
    }

    @Override
    protected ListPartitionReassignmentsRequestData kafkaSample() {
        return new ListPartitionReassignmentsRequestData().setTimeoutMs(12_345).setTopics(List.of(
            new ListPartitionReassignmentsRequestData.ListPartitionReassignmentsTopics().setName(KafkaSamples.TOPIC)
                .setPartitionIndexes(List.of(0, 4)),
            new ListPartitionReassignmentsRequestData.ListPartitionReassignmentsTopics().setName("other")
                .setPartitionIndexes(List.of())));
    }

    @Override
    protected ListPartitionReassignmentsRequestData kafkaRead(ByteBuffer buffer) {
        return new ListPartitionReassignmentsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ListPartitionReassignmentsRequest millraceRead(ByteBuffer buffer) {
        return ListPartitionReassignmentsRequest.parse(buffer, version);
    }

    @Override
    protected ListPartitionReassignmentsRequest toMillrace(ListPartitionReassignmentsRequestData k) {
        return new ListPartitionReassignmentsRequest(k.timeoutMs(), k.topics() == null ? null : k.topics().stream()
            .map(t -> new ListPartitionReassignmentsRequest.TopicPartitions(t.name(), t.partitionIndexes())).toList());
    }
}
