package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeGroupsRequestTest extends CompatibilityContract<DescribeGroupsRequestData, DescribeGroupsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_GROUPS);
    }

    public DescribeGroupsRequestTest(short version) {
        super(version);
    }

    @Override
    protected DescribeGroupsRequestData kafkaSample() {
        return GroupSamples.describeGroupsRequest(version);
    }

    @Override
    protected DescribeGroupsRequestData kafkaRead(ByteBuffer buffer) {
        return new DescribeGroupsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeGroupsRequest millraceRead(ByteBuffer buffer) {
        return DescribeGroupsRequest.parse(buffer, version);
    }

    @Override
    protected DescribeGroupsRequest toMillrace(DescribeGroupsRequestData k) {
        return new DescribeGroupsRequest(k.groups(), k.includeAuthorizedOperations());
    }
}
