package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeClusterResponseTest extends CompatibilityContract<DescribeClusterResponseData, DescribeClusterResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_CLUSTER);
    }

    public DescribeClusterResponseTest(short version) {
        super(version);
    }

    @Override
    protected DescribeClusterResponseData kafkaSample() {
        return ConfigSamples.describeClusterResponse(version);
    }

    @Override
    protected DescribeClusterResponseData kafkaRead(ByteBuffer buffer) {
        return new DescribeClusterResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeClusterResponse millraceRead(ByteBuffer buffer) {
        return DescribeClusterResponse.parse(buffer, version);
    }

    @Override
    protected DescribeClusterResponse toMillrace(DescribeClusterResponseData k) {
        return new DescribeClusterResponse(k.throttleTimeMs(), k.errorCode(), k.errorMessage(), k.endpointType(), k.clusterId(),
            k.controllerId(), k.brokers().stream().map(b -> new DescribeClusterResponse.Broker(b.brokerId(), b.host(), b.port(),
                b.rack(), b.isFenced())).toList(), k.clusterAuthorizedOperations());
    }
}
