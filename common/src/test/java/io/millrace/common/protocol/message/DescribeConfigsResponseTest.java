package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeConfigsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeConfigsResponseTest extends CompatibilityContract<DescribeConfigsResponseData, DescribeConfigsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_CONFIGS);
    }

    public DescribeConfigsResponseTest(short version) {
        super(version);
    }

    @Override
    protected DescribeConfigsResponseData kafkaSample() {
        return KafkaSamples.describeConfigsResponse(version);
    }

    @Override
    protected DescribeConfigsResponseData kafkaRead(ByteBuffer buffer) {
        return new DescribeConfigsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeConfigsResponse millraceRead(ByteBuffer buffer) {
        return DescribeConfigsResponse.parse(buffer, version);
    }

    @Override
    protected DescribeConfigsResponse toMillrace(DescribeConfigsResponseData k) {
        return new DescribeConfigsResponse(k.throttleTimeMs(), k.results().stream()
            .map(r -> new DescribeConfigsResponse.Result(r.errorCode(), r.errorMessage(), r.resourceType(), r.resourceName(),
                r.configs().stream().map(c -> new DescribeConfigsResponse.Entry(c.name(), c.value(), c.readOnly(),
                    c.configSource(), c.isSensitive(), c.synonyms().stream()
                        .map(s -> new DescribeConfigsResponse.Synonym(s.name(), s.value(), s.source())).toList(),
                    c.configType(), c.documentation())).toList()))
            .toList());
    }
}
