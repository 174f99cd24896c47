package io.millrace.common.protocol.message;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ConsumerGroupHeartbeatResponseTest
    extends CompatibilityContract<ConsumerGroupHeartbeatResponseData, ConsumerGroupHeartbeatResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.CONSUMER_GROUP_HEARTBEAT);
    }

    public ConsumerGroupHeartbeatResponseTest(short version) {
        super(version);
    }

    @Override
    protected ConsumerGroupHeartbeatResponseData kafkaSample() {
        return new ConsumerGroupHeartbeatResponseData().setThrottleTimeMs(3).setErrorCode((short) 0).setErrorMessage("fine")
            .setMemberId("m-1").setMemberEpoch(9).setHeartbeatIntervalMs(5000)
            .setAssignment(new ConsumerGroupHeartbeatResponseData.Assignment().setTopicPartitions(List.of(
                new ConsumerGroupHeartbeatResponseData.TopicPartitions().setTopicId(Uuid.fromString("AAAAAAAAAAEAAAAAAAAAAg"))
                    .setPartitions(List.of(1, 2, 5)))));
    }

    @Override
    protected ConsumerGroupHeartbeatResponseData kafkaRead(ByteBuffer buffer) {
        return new ConsumerGroupHeartbeatResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ConsumerGroupHeartbeatResponse millraceRead(ByteBuffer buffer) {
        return ConsumerGroupHeartbeatResponse.parse(buffer, version);
    }

    @Override
    protected ConsumerGroupHeartbeatResponse toMillrace(ConsumerGroupHeartbeatResponseData k) {
        return new ConsumerGroupHeartbeatResponse(k.throttleTimeMs(), k.errorCode(), k.errorMessage(), k.memberId(),
            k.memberEpoch(), k.heartbeatIntervalMs(), k.assignment() == null ? null : k.assignment().topicPartitions().stream()
                .map(tp -> new ConsumerGroupHeartbeatRequest.TopicPartitions(
                    new java.util.UUID(tp.topicId().getMostSignificantBits(), tp.topicId().getLeastSignificantBits()),
                    tp.partitions()))
                .toList());
    }

    @Test
    public void kafkaReadsAnAnswerWithoutAssignmentAsUnchanged() {
        ConsumerGroupHeartbeatResponse answer = ConsumerGroupHeartbeatResponse.error(Errors.FENCED_MEMBER_EPOCH, "stale");
        ConsumerGroupHeartbeatResponseData kafka = kafkaRead(Wire.millraceWrite(answer, version));
        assertNull(kafka.assignment());
        assertEquals(Errors.FENCED_MEMBER_EPOCH.code(), kafka.errorCode());
        assertEquals(-1, kafka.memberEpoch());
    }
}
