package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeGroupsResponseTest extends CompatibilityContract<DescribeGroupsResponseData, DescribeGroupsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_GROUPS);
    }

    public DescribeGroupsResponseTest(short version) {
        super(version);
    }

    @Override
    protected DescribeGroupsResponseData kafkaSample() {
        return GroupSamples.describeGroupsResponse(version);
    }

    @Override
    protected DescribeGroupsResponseData kafkaRead(ByteBuffer buffer) {
        return new DescribeGroupsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeGroupsResponse millraceRead(ByteBuffer buffer) {
        return DescribeGroupsResponse.parse(buffer, version);
    }

    @Override
    protected DescribeGroupsResponse toMillrace(DescribeGroupsResponseData k) {
        return new DescribeGroupsResponse(k.throttleTimeMs(), k.groups().stream().map(g -> new DescribeGroupsResponse.Group(
            g.errorCode(), g.errorMessage(), g.groupId(), g.groupState(), g.protocolType(), g.protocolData(), g.members().stream()
                .map(m -> new DescribeGroupsResponse.Member(m.memberId(), m.groupInstanceId(), m.clientId(), m.clientHost(),
                    GroupSamples.wrap(m.memberMetadata()), GroupSamples.wrap(m.memberAssignment()))).toList(),
            g.authorizedOperations())).toList());
    }
}
