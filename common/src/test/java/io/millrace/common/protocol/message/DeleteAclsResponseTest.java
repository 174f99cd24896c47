package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DeleteAclsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DeleteAclsResponseTest extends CompatibilityContract<DeleteAclsResponseData, DeleteAclsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DELETE_ACLS);
    }

    public DeleteAclsResponseTest(short version) {
        super(version);
    }

    @Override
    protected DeleteAclsResponseData kafkaSample() {
        DeleteAclsResponseData.DeleteAclsMatchingAcl matching = new DeleteAclsResponseData.DeleteAclsMatchingAcl()
            .setErrorCode((short) 0).setErrorMessage(null).setResourceType((byte) 2).setResourceName(KafkaSamples.TOPIC)
            .setPatternType((byte) 4).setPrincipal("User:alice").setHost("*").setOperation((byte) 3).setPermissionType((byte) 3);
        return new DeleteAclsResponseData().setThrottleTimeMs(7).setFilterResults(List.of(
            new DeleteAclsResponseData.DeleteAclsFilterResult().setErrorCode((short) 0).setErrorMessage(null)
                .setMatchingAcls(List.of(matching)),
            new DeleteAclsResponseData.DeleteAclsFilterResult().setErrorCode(Errors.SECURITY_DISABLED.code())
                .setErrorMessage("No authorizer").setMatchingAcls(List.of())));
    }

    @Override
    protected DeleteAclsResponseData kafkaRead(ByteBuffer buffer) {
        return new DeleteAclsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DeleteAclsResponse millraceRead(ByteBuffer buffer) {
        return DeleteAclsResponse.parse(buffer, version);
    }

    @Override
    protected DeleteAclsResponse toMillrace(DeleteAclsResponseData k) {
        return new DeleteAclsResponse(k.throttleTimeMs(), k.filterResults().stream()
            .map(r -> new DeleteAclsResponse.FilterResult(r.errorCode(), r.errorMessage(), r.matchingAcls().stream()
                .map(a -> new DeleteAclsResponse.MatchingAcl(a.errorCode(), a.errorMessage(), new AclBinding(a.resourceType(),
                    a.resourceName(), a.patternType(), a.principal(), a.host(), a.operation(), a.permissionType())))
                .toList()))
            .toList());
    }
}
