package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class IncrementalAlterConfigsRequestTest extends CompatibilityContract<IncrementalAlterConfigsRequestData, IncrementalAlterConfigsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.INCREMENTAL_ALTER_CONFIGS);
    }

    public IncrementalAlterConfigsRequestTest(short version) {
        super(version);
    }

    @Override
    protected IncrementalAlterConfigsRequestData kafkaSample() {
        return ConfigSamples.incrementalAlterConfigsRequest();
    }

    @Override
    protected IncrementalAlterConfigsRequestData kafkaRead(ByteBuffer buffer) {
        return new IncrementalAlterConfigsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected IncrementalAlterConfigsRequest millraceRead(ByteBuffer buffer) {
        return IncrementalAlterConfigsRequest.parse(buffer, version);
    }

    @Override
    protected IncrementalAlterConfigsRequest toMillrace(IncrementalAlterConfigsRequestData k) {
        return new IncrementalAlterConfigsRequest(k.resources().stream()
            .map(r -> new IncrementalAlterConfigsRequest.Resource(r.resourceType(), r.resourceName(), r.configs().stream()
                .map(c -> new IncrementalAlterConfigsRequest.AlterableConfig(c.name(), c.configOperation(), c.value()))
                .toList()))
            .toList(), k.validateOnly());
    }
}
