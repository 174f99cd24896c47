package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeAclsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeAclsResponseTest extends CompatibilityContract<DescribeAclsResponseData, DescribeAclsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_ACLS);
    }

    public DescribeAclsResponseTest(short version) {
        super(version);
    }

    @Override
    protected DescribeAclsResponseData kafkaSample() {
        DescribeAclsResponseData.DescribeAclsResource resource = new DescribeAclsResponseData.DescribeAclsResource()
            .setResourceType((byte) 2).setResourceName(KafkaSamples.TOPIC).setPatternType((byte) 3).setAcls(List.of(
                new DescribeAclsResponseData.AclDescription().setPrincipal("User:alice").setHost("*").setOperation((byte) 3)
                    .setPermissionType((byte) 3),
                new DescribeAclsResponseData.AclDescription().setPrincipal("User:bob").setHost("10.0.0.1").setOperation((byte) 4)
                    .setPermissionType((byte) 2)));
        return new DescribeAclsResponseData().setThrottleTimeMs(7).setErrorCode(Errors.SECURITY_DISABLED.code())
            .setErrorMessage("No authorizer").setResources(List.of(resource));
    }

    @Override
    protected DescribeAclsResponseData kafkaRead(ByteBuffer buffer) {
        return new DescribeAclsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeAclsResponse millraceRead(ByteBuffer buffer) {
        return DescribeAclsResponse.parse(buffer, version);
    }

    @Override
    protected DescribeAclsResponse toMillrace(DescribeAclsResponseData k) {
        return new DescribeAclsResponse(k.throttleTimeMs(), k.errorCode(), k.errorMessage(), k.resources().stream()
            .map(r -> new DescribeAclsResponse.Resource(r.resourceType(), r.resourceName(), r.patternType(), r.acls().stream()
                .map(a -> new DescribeAclsResponse.AclDescription(a.principal(), a.host(), a.operation(), a.permissionType()))
                .toList()))
            .toList());
    }
}
