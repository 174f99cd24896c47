package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DeleteAclsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DeleteAclsRequestTest extends CompatibilityContract<DeleteAclsRequestData, DeleteAclsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DELETE_ACLS);
    }

    public DeleteAclsRequestTest(short version) {
        super(version);
    }

    @Override
    protected DeleteAclsRequestData kafkaSample() {
        return new DeleteAclsRequestData().setFilters(List.of(
            new DeleteAclsRequestData.DeleteAclsFilter().setResourceTypeFilter((byte) 1).setResourceNameFilter(null)
                .setPatternTypeFilter((byte) 1).setPrincipalFilter(null).setHostFilter(null).setOperation((byte) 1)
                .setPermissionType((byte) 1),
            new DeleteAclsRequestData.DeleteAclsFilter().setResourceTypeFilter((byte) 2).setResourceNameFilter(KafkaSamples.TOPIC)
                .setPatternTypeFilter((byte) 2).setPrincipalFilter("User:alice").setHostFilter("*").setOperation((byte) 4)
                .setPermissionType((byte) 3)));
    }

    @Override
    protected DeleteAclsRequestData kafkaRead(ByteBuffer buffer) {
        return new DeleteAclsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DeleteAclsRequest millraceRead(ByteBuffer buffer) {
        return DeleteAclsRequest.parse(buffer, version);
    }

    @Override
    protected DeleteAclsRequest toMillrace(DeleteAclsRequestData k) {
        return new DeleteAclsRequest(k.filters().stream().map(f -> new AclBinding(f.resourceTypeFilter(), f.resourceNameFilter(),
            f.patternTypeFilter(), f.principalFilter(), f.hostFilter(), f.operation(), f.permissionType())).toList());
    }
}
