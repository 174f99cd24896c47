package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class HeartbeatRequestTest extends CompatibilityContract<HeartbeatRequestData, HeartbeatRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.HEARTBEAT);
    }

    public HeartbeatRequestTest(short version) {
        super(version);
    }

    @Override
    protected HeartbeatRequestData kafkaSample() {
        return GroupSamples.heartbeatRequest(version);
    }

    @Override
    protected HeartbeatRequestData kafkaRead(ByteBuffer buffer) {
        return new HeartbeatRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected HeartbeatRequest millraceRead(ByteBuffer buffer) {
        return HeartbeatRequest.parse(buffer, version);
    }

    @Override
    protected HeartbeatRequest toMillrace(HeartbeatRequestData k) {
        return new HeartbeatRequest(k.groupId(), k.generationId(), k.memberId(), k.groupInstanceId());
    }
}
