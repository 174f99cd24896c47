package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class JoinGroupRequestTest extends CompatibilityContract<JoinGroupRequestData, JoinGroupRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.JOIN_GROUP);
    }

    public JoinGroupRequestTest(short version) {
        super(version);
    }

    @Override
    protected JoinGroupRequestData kafkaSample() {
        return GroupSamples.joinGroupRequest(version);
    }

    @Override
    protected JoinGroupRequestData kafkaRead(ByteBuffer buffer) {
        return new JoinGroupRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected JoinGroupRequest millraceRead(ByteBuffer buffer) {
        return JoinGroupRequest.parse(buffer, version);
    }

    @Override
    protected JoinGroupRequest toMillrace(JoinGroupRequestData k) {
        return new JoinGroupRequest(k.groupId(), k.sessionTimeoutMs(), k.rebalanceTimeoutMs(), k.memberId(), k.groupInstanceId(),
            k.protocolType(), k.protocols().stream()
                .map(p -> new JoinGroupRequest.Protocol(p.name(), GroupSamples.wrap(p.metadata()))).toList(), k.reason());
    }
}
