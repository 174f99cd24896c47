package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class LeaveGroupRequestTest extends CompatibilityContract<LeaveGroupRequestData, LeaveGroupRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.LEAVE_GROUP);
    }

    public LeaveGroupRequestTest(short version) {
        super(version);
    }

    @Override
    protected LeaveGroupRequestData kafkaSample() {
        return GroupSamples.leaveGroupRequest(version);
    }

    @Override
    protected LeaveGroupRequestData kafkaRead(ByteBuffer buffer) {
        return new LeaveGroupRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected LeaveGroupRequest millraceRead(ByteBuffer buffer) {
        return LeaveGroupRequest.parse(buffer, version);
    }

    @Override
    protected LeaveGroupRequest toMillrace(LeaveGroupRequestData k) {
        return new LeaveGroupRequest(k.groupId(), k.memberId(), k.members().stream()
            .map(m -> new LeaveGroupRequest.Member(m.memberId(), m.groupInstanceId(), m.reason())).toList());
    }
}
