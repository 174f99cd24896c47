package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class IncrementalAlterConfigsResponseTest extends CompatibilityContract<IncrementalAlterConfigsResponseData, IncrementalAlterConfigsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.INCREMENTAL_ALTER_CONFIGS);
    }

    public IncrementalAlterConfigsResponseTest(short version) {
        super(version);
    }

    @Override
    protected IncrementalAlterConfigsResponseData kafkaSample() {
        return ConfigSamples.incrementalAlterConfigsResponse();
    }

    @Override
    protected IncrementalAlterConfigsResponseData kafkaRead(ByteBuffer buffer) {
        return new IncrementalAlterConfigsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected IncrementalAlterConfigsResponse millraceRead(ByteBuffer buffer) {
        return IncrementalAlterConfigsResponse.parse(buffer, version);
    }

    @Override
    protected IncrementalAlterConfigsResponse toMillrace(IncrementalAlterConfigsResponseData k) {
        return new IncrementalAlterConfigsResponse(k.throttleTimeMs(), k.responses().stream()
            .map(r -> new IncrementalAlterConfigsResponse.Result(r.errorCode(), r.errorMessage(), r.resourceType(),
                r.resourceName()))
            .toList());
    }
}
