package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class AlterConfigsRequestTest extends CompatibilityContract<AlterConfigsRequestData, AlterConfigsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.ALTER_CONFIGS);
    }

    public AlterConfigsRequestTest(short version) {
        super(version);
    }

    @Override
    protected AlterConfigsRequestData kafkaSample() {
        return ConfigSamples.alterConfigsRequest();
    }

    @Override
    protected AlterConfigsRequestData kafkaRead(ByteBuffer buffer) {
        return new AlterConfigsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected AlterConfigsRequest millraceRead(ByteBuffer buffer) {
        return AlterConfigsRequest.parse(buffer, version);
    }

    @Override
    protected AlterConfigsRequest toMillrace(AlterConfigsRequestData k) {
        return new AlterConfigsRequest(k.resources().stream()
            .map(r -> new AlterConfigsRequest.Resource(r.resourceType(), r.resourceName(), r.configs().stream()
                .map(c -> new AlterConfigsRequest.AlterableConfig(c.name(), c.value())).toList()))
            .toList(), k.validateOnly());
    }
}
