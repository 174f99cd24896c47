package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.AlterPartitionReassignmentsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class AlterPartitionReassignmentsResponseTest extends CompatibilityContract<AlterPartitionReassignmentsResponseData, AlterPartitionReassignmentsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.ALTER_PARTITION_REASSIGNMENTS);
    }

    public AlterPartitionReassignmentsResponseTest(short version) {
        super(version);
    }

    @Override
    protected AlterPartitionReassignmentsResponseData kafkaSample() {
        return new AlterPartitionReassignmentsResponseData().setThrottleTimeMs(7).setAllowReplicationFactorChange(version < 1)
            .setErrorCode(Errors.NOT_CONTROLLER.code()).setErrorMessage("not the controller").setResponses(List.of(
                new AlterPartitionReassignmentsResponseData.ReassignableTopicResponse().setName(KafkaSamples.TOPIC)
                    .setPartitions(List.of(
                        new AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse().setPartitionIndex(0)
                            .setErrorCode((short) 0).setErrorMessage(null),
                        new AlterPartitionReassignmentsResponseData.ReassignablePartitionResponse().setPartitionIndex(4)
                            .setErrorCode(Errors.NO_REASSIGNMENT_IN_PROGRESS.code()).setErrorMessage("none to cancel")))));
    }

    @Override
    protected AlterPartitionReassignmentsResponseData kafkaRead(ByteBuffer buffer) {
        return new AlterPartitionReassignmentsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected AlterPartitionReassignmentsResponse millraceRead(ByteBuffer buffer) {
        return AlterPartitionReassignmentsResponse.parse(buffer, version);
    }

    @Override
    protected AlterPartitionReassignmentsResponse toMillrace(AlterPartitionReassignmentsResponseData k) {
        return new AlterPartitionReassignmentsResponse(k.throttleTimeMs(), k.allowReplicationFactorChange(), k.errorCode(),
            k.errorMessage(), k.responses().stream()
            .map(t -> new AlterPartitionReassignmentsResponse.TopicResponse(t.name(), t.partitions().stream()
                .map(p -> new AlterPartitionReassignmentsResponse.PartitionResponse(p.partitionIndex(), p.errorCode(),
                    p.errorMessage()))
                .toList()))
            .toList());
    }
}
