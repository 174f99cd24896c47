package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class AlterConfigsResponseTest extends CompatibilityContract<AlterConfigsResponseData, AlterConfigsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.ALTER_CONFIGS);
    }

    public AlterConfigsResponseTest(short version) {
        super(version);
    }

    @Override
    protected AlterConfigsResponseData kafkaSample() {
        return ConfigSamples.alterConfigsResponse();
    }

    @Override
    protected AlterConfigsResponseData kafkaRead(ByteBuffer buffer) {
        return new AlterConfigsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected AlterConfigsResponse millraceRead(ByteBuffer buffer) {
        return AlterConfigsResponse.parse(buffer, version);
    }

    @Override
    protected AlterConfigsResponse toMillrace(AlterConfigsResponseData k) {
        return new AlterConfigsResponse(k.throttleTimeMs(), k.responses().stream()
            .map(r -> new AlterConfigsResponse.Result(r.errorCode(), r.errorMessage(), r.resourceType(), r.resourceName()))
            .toList());
    }
}
