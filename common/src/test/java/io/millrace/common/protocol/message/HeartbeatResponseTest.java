package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.HeartbeatResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class HeartbeatResponseTest extends CompatibilityContract<HeartbeatResponseData, HeartbeatResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.HEARTBEAT);
    }

    public HeartbeatResponseTest(short version) {
        super(version);
    }

    @Override
    protected HeartbeatResponseData kafkaSample() {
        return GroupSamples.heartbeatResponse();
    }

    @Override
    protected HeartbeatResponseData kafkaRead(ByteBuffer buffer) {
        return new HeartbeatResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected HeartbeatResponse millraceRead(ByteBuffer buffer) {
        return HeartbeatResponse.parse(buffer, version);
    }

    @Override
    protected HeartbeatResponse toMillrace(HeartbeatResponseData k) {
        return new HeartbeatResponse(k.throttleTimeMs(), k.errorCode());
    }
}
