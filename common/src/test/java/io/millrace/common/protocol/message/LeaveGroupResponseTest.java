package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.LeaveGroupResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class LeaveGroupResponseTest extends CompatibilityContract<LeaveGroupResponseData, LeaveGroupResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.LEAVE_GROUP);
    }

    public LeaveGroupResponseTest(short version) {
        super(version);
    }

    @Override
    protected LeaveGroupResponseData kafkaSample() {
        return GroupSamples.leaveGroupResponse(version);
    }

    @Override
    protected LeaveGroupResponseData kafkaRead(ByteBuffer buffer) {
        return new LeaveGroupResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected LeaveGroupResponse millraceRead(ByteBuffer buffer) {
        return LeaveGroupResponse.parse(buffer, version);
    }

    @Override
    protected LeaveGroupResponse toMillrace(LeaveGroupResponseData k) {
        return new LeaveGroupResponse(k.throttleTimeMs(), k.errorCode(), k.members().stream()
            .map(m -> new LeaveGroupResponse.MemberResult(m.memberId(), m.groupInstanceId(), m.errorCode())).toList());
    }
}
