package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeClusterRequestTest extends CompatibilityContract<DescribeClusterRequestData, DescribeClusterRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_CLUSTER);
    }

    public DescribeClusterRequestTest(short version) {
        super(version);
    }

    @Override
    protected DescribeClusterRequestData kafkaSample() {
        return ConfigSamples.describeClusterRequest(version);
    }

    @Override
    protected DescribeClusterRequestData kafkaRead(ByteBuffer buffer) {
        return new DescribeClusterRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeClusterRequest millraceRead(ByteBuffer buffer) {
        return DescribeClusterRequest.parse(buffer, version);
    }

    @Override
    protected DescribeClusterRequest toMillrace(DescribeClusterRequestData k) {
        return new DescribeClusterRequest(k.includeClusterAuthorizedOperations(), k.endpointType(), k.includeFencedBrokers());
    }
}
