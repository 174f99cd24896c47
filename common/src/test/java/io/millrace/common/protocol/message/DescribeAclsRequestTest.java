package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeAclsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeAclsRequestTest extends CompatibilityContract<DescribeAclsRequestData, DescribeAclsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_ACLS);
    }

    public DescribeAclsRequestTest(short version) {
        super(version);
    }

    @Override
    protected DescribeAclsRequestData kafkaSample() {
        // a filter: any resource name, a prefixed pattern, one principal, any host, read, allow
        return new DescribeAclsRequestData().setResourceTypeFilter((byte) 2).setResourceNameFilter(null)
            .setPatternTypeFilter((byte) 4).setPrincipalFilter("User:alice").setHostFilter(null).setOperation((byte) 3)
            .setPermissionType((byte) 3);
    }

    @Override
    protected DescribeAclsRequestData kafkaRead(ByteBuffer buffer) {
        return new DescribeAclsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeAclsRequest millraceRead(ByteBuffer buffer) {
        return DescribeAclsRequest.parse(buffer, version);
    }

    @Override
    protected DescribeAclsRequest toMillrace(DescribeAclsRequestData k) {
        return new DescribeAclsRequest(new AclBinding(k.resourceTypeFilter(), k.resourceNameFilter(), k.patternTypeFilter(),
            k.principalFilter(), k.hostFilter(), k.operation(), k.permissionType()));
    }
}
