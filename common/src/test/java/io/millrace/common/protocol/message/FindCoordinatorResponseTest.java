package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class FindCoordinatorResponseTest extends CompatibilityContract<FindCoordinatorResponseData, FindCoordinatorResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.FIND_COORDINATOR);
    }

    public FindCoordinatorResponseTest(short version) {
        super(version);
    }

    @Override
    protected FindCoordinatorResponseData kafkaSample() {
        return GroupSamples.findCoordinatorResponse(version);
    }

    @Override
    protected FindCoordinatorResponseData kafkaRead(ByteBuffer buffer) {
        return new FindCoordinatorResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected FindCoordinatorResponse millraceRead(ByteBuffer buffer) {
        return FindCoordinatorResponse.parse(buffer, version);
    }

    @Override
    protected FindCoordinatorResponse toMillrace(FindCoordinatorResponseData k) {
        return new FindCoordinatorResponse(k.throttleTimeMs(), k.errorCode(), k.errorMessage(), k.nodeId(), k.host(), k.port(),
            k.coordinators().stream().map(c -> new FindCoordinatorResponse.Coordinator(c.key(), c.nodeId(), c.host(), c.port(),
                c.errorCode(), c.errorMessage())).toList());
    }
}
