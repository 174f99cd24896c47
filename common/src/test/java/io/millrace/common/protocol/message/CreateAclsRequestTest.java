package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.CreateAclsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class CreateAclsRequestTest extends CompatibilityContract<CreateAclsRequestData, CreateAclsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.CREATE_ACLS);
    }

    public CreateAclsRequestTest(short version) {
        super(version);
    }

    @Override
    protected CreateAclsRequestData kafkaSample() {
        return new CreateAclsRequestData().setCreations(List.of(
            new CreateAclsRequestData.AclCreation().setResourceType((byte) 2).setResourceName(KafkaSamples.TOPIC)
                .setResourcePatternType((byte) 4).setPrincipal("User:alice").setHost("*").setOperation((byte) 3)
                .setPermissionType((byte) 3),
            new CreateAclsRequestData.AclCreation().setResourceType((byte) 3).setResourceName("group-1")
                .setResourcePatternType((byte) 3).setPrincipal("User:bob").setHost("10.0.0.1").setOperation((byte) 2)
                .setPermissionType((byte) 2)));
    }

    @Override
    protected CreateAclsRequestData kafkaRead(ByteBuffer buffer) {
        return new CreateAclsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected CreateAclsRequest millraceRead(ByteBuffer buffer) {
        return CreateAclsRequest.parse(buffer, version);
    }

    @Override
    protected CreateAclsRequest toMillrace(CreateAclsRequestData k) {
        return new CreateAclsRequest(k.creations().stream().map(c -> new AclBinding(c.resourceType(), c.resourceName(),
            c.resourcePatternType(), c.principal(), c.host(), c.operation(), c.permissionType())).toList());
    }
}
