package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ElectLeadersResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ElectLeadersResponseTest extends CompatibilityContract<ElectLeadersResponseData, ElectLeadersResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.ELECT_LEADERS);
    }

    public ElectLeadersResponseTest(short version) {
        super(version);
    }

    @Override
    protected ElectLeadersResponseData kafkaSample() {
        ElectLeadersResponseData.ReplicaElectionResult topic = new ElectLeadersResponseData.ReplicaElectionResult()
            .setTopic(KafkaSamples.TOPIC).setPartitionResult(List.of(
                new ElectLeadersResponseData.PartitionResult().setPartitionId(0).setErrorCode((short) 0).setErrorMessage(null),
                new ElectLeadersResponseData.PartitionResult().setPartitionId(3).setErrorCode(Errors.ELECTION_NOT_NEEDED.code())
                    .setErrorMessage("already led by its preferred replica")));
        // version 0 has no top-level error code: only its default can be written there
        return new ElectLeadersResponseData().setThrottleTimeMs(7)
            .setErrorCode(version >= 1 ? Errors.NOT_CONTROLLER.code() : 0).setReplicaElectionResults(List.of(topic));
    }

    @Override
    protected ElectLeadersResponseData kafkaRead(ByteBuffer buffer) {
        return new ElectLeadersResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ElectLeadersResponse millraceRead(ByteBuffer buffer) {
        return ElectLeadersResponse.parse(buffer, version);
    }

    @Override
    protected ElectLeadersResponse toMillrace(ElectLeadersResponseData k) {
        return new ElectLeadersResponse(k.throttleTimeMs(), k.errorCode(), k.replicaElectionResults().stream()
            .map(t -> new ElectLeadersResponse.ReplicaElectionResult(t.topic(), t.partitionResult().stream()
                .map(p -> new ElectLeadersResponse.PartitionResult(p.partitionId(), p.errorCode(), p.errorMessage())).toList()))
            .toList());
    }
}
