package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class FindCoordinatorRequestTest extends CompatibilityContract<FindCoordinatorRequestData, FindCoordinatorRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.FIND_COORDINATOR);
    }

    public FindCoordinatorRequestTest(short version) {
        super(version);
    }

    @Override
    protected FindCoordinatorRequestData kafkaSample() {
        return GroupSamples.findCoordinatorRequest(version);
    }

    @Override
    protected FindCoordinatorRequestData kafkaRead(ByteBuffer buffer) {
        return new FindCoordinatorRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected FindCoordinatorRequest millraceRead(ByteBuffer buffer) {
        return FindCoordinatorRequest.parse(buffer, version);
    }

    @Override
    protected FindCoordinatorRequest toMillrace(FindCoordinatorRequestData k) {
        return new FindCoordinatorRequest(k.key(), k.keyType(), k.coordinatorKeys());
    }
}
