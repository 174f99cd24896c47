package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class JoinGroupResponseTest extends CompatibilityContract<JoinGroupResponseData, JoinGroupResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.JOIN_GROUP);
    }

    public JoinGroupResponseTest(short version) {
        super(version);
    }

    @Override
    protected JoinGroupResponseData kafkaSample() {
        return GroupSamples.joinGroupResponse(version);
    }

    @Override
    protected JoinGroupResponseData kafkaRead(ByteBuffer buffer) {
        return new JoinGroupResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected JoinGroupResponse millraceRead(ByteBuffer buffer) {
        return JoinGroupResponse.parse(buffer, version);
    }

    @Override
    protected JoinGroupResponse toMillrace(JoinGroupResponseData k) {
        return new JoinGroupResponse(k.throttleTimeMs(), k.errorCode(), k.generationId(), k.protocolType(), k.protocolName(),
            k.leader(), k.skipAssignment(), k.memberId(), k.members().stream()
                .map(m -> new JoinGroupResponse.Member(m.memberId(), m.groupInstanceId(), GroupSamples.wrap(m.metadata()))).toList());
    }
}
