package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.AlterPartitionReassignmentsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class AlterPartitionReassignmentsRequestTest extends CompatibilityContract<AlterPartitionReassignmentsRequestData, AlterPartitionReassignmentsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.ALTER_PARTITION_REASSIGNMENTS);
    }

    public AlterPartitionReassignmentsRequestTest(short version) {
        super(version);
    }

    @Override
    protected AlterPartitionReassignmentsRequestData kafkaSample() {
        // version 0 has no allow_replication_factor_change: only its default, true, can be written there
        return new AlterPartitionReassignmentsRequestData().setTimeoutMs(12_345).setAllowReplicationFactorChange(version < 1)
            .setTopics(List.of(new AlterPartitionReassignmentsRequestData.ReassignableTopic().setName(KafkaSamples.TOPIC)
                .setPartitions(List.of(
                    new AlterPartitionReassignmentsRequestData.ReassignablePartition().setPartitionIndex(0)
                        .setReplicas(List.of(2, 1, 3)),
                    new AlterPartitionReassignmentsRequestData.ReassignablePartition().setPartitionIndex(4).setReplicas(null)))));
    }

    @Override
    protected AlterPartitionReassignmentsRequestData kafkaRead(ByteBuffer buffer) {
        return new AlterPartitionReassignmentsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected AlterPartitionReassignmentsRequest millraceRead(ByteBuffer buffer) {
        return AlterPartitionReassignmentsRequest.parse(buffer, version);
    }

    @Override
    protected AlterPartitionReassignmentsRequest toMillrace(AlterPartitionReassignmentsRequestData k) {
        return new AlterPartitionReassignmentsRequest(k.timeoutMs(), k.allowReplicationFactorChange(), k.topics().stream()
            .map(t -> new AlterPartitionReassignmentsRequest.ReassignableTopic(t.name(), t.partitions().stream()
                .map(p -> new AlterPartitionReassignmentsRequest.ReassignablePartition(p.partitionIndex(), p.replicas()))
                .toList()))
            .toList());
    }
}
