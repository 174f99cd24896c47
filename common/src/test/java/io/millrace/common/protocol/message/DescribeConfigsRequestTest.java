package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeConfigsRequestTest extends CompatibilityContract<DescribeConfigsRequestData, DescribeConfigsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_CONFIGS);
    }

    public DescribeConfigsRequestTest(short version) {
        super(version);
    }

    @Override
    protected DescribeConfigsRequestData kafkaSample() {
        return KafkaSamples.describeConfigsRequest(version);
    }

    @Override
    protected DescribeConfigsRequestData kafkaRead(ByteBuffer buffer) {
        return new DescribeConfigsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeConfigsRequest millraceRead(ByteBuffer buffer) {
        return DescribeConfigsRequest.parse(buffer, version);
    }

    @Override
    protected DescribeConfigsRequest toMillrace(DescribeConfigsRequestData k) {
        return new DescribeConfigsRequest(k.resources().stream()
            .map(r -> new DescribeConfigsRequest.Resource(r.resourceType(), r.resourceName(), r.configurationKeys()))
            .toList(), k.includeSynonyms(), k.includeDocumentation());
    }
}
