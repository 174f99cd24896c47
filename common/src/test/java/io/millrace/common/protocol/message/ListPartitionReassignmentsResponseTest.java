package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ListPartitionReassignmentsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ListPartitionReassignmentsResponseTest extends CompatibilityContract<ListPartitionReassignmentsResponseData, ListPartitionReassignmentsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.LIST_PARTITION_REASSIGNMENTS);
    }

    public ListPartitionReassignmentsResponseTest(short version) {
        super(version);
    }

    @Override
    protected ListPartitionReassignmentsResponseData kafkaSample() {
        return new ListPartitionReassignmentsResponseData().setThrottleTimeMs(7).setErrorCode((short) 0).setErrorMessage(null)
            .setTopics(List.of(new ListPartitionReassignmentsResponseData.OngoingTopicReassignment().setName(KafkaSamples.TOPIC)
                .setPartitions(List.of(new ListPartitionReassignmentsResponseData.OngoingPartitionReassignment()
                    .setPartitionIndex(3).setReplicas(List.of(2, 3, 1)).setAddingReplicas(List.of(2, 3))
                    .setRemovingReplicas(List.of(1))))));
    }

    @Override
    protected ListPartitionReassignmentsResponseData kafkaRead(ByteBuffer buffer) {
        return new ListPartitionReassignmentsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ListPartitionReassignmentsResponse millraceRead(ByteBuffer buffer) {
        return ListPartitionReassignmentsResponse.parse(buffer, version);
    }

    @Override
    protected ListPartitionReassignmentsResponse toMillrace(ListPartitionReassignmentsResponseData k) {
        return new ListPartitionReassignmentsResponse(k.throttleTimeMs(), k.errorCode(), k.errorMessage(), k.topics().stream()
            .map(t -> new ListPartitionReassignmentsResponse.OngoingTopicReassignment(t.name(), t.partitions().stream()
                .map(p -> new ListPartitionReassignmentsResponse.OngoingPartitionReassignment(p.partitionIndex(), p.replicas(),
                    p.addingReplicas(), p.removingReplicas()))
                .toList()))
            .toList());
    }
}
