package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.CreateAclsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class CreateAclsResponseTest extends CompatibilityContract<CreateAclsResponseData, CreateAclsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.CREATE_ACLS);
    }

    public CreateAclsResponseTest(short version) {
        super(version);
    }

    @Override
    protected CreateAclsResponseData kafkaSample() {
        return new CreateAclsResponseData().setThrottleTimeMs(7).setResults(List.of(
            new CreateAclsResponseData.AclCreationResult().setErrorCode(Errors.SECURITY_DISABLED.code())
                .setErrorMessage("No authorizer"),
            new CreateAclsResponseData.AclCreationResult().setErrorCode((short) 0).setErrorMessage(null)));
    }

    @Override
    protected CreateAclsResponseData kafkaRead(ByteBuffer buffer) {
        return new CreateAclsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected CreateAclsResponse millraceRead(ByteBuffer buffer) {
        return CreateAclsResponse.parse(buffer, version);
    }

    @Override
    protected CreateAclsResponse toMillrace(CreateAclsResponseData k) {
        return new CreateAclsResponse(k.throttleTimeMs(), k.results().stream()
            .map(r -> new CreateAclsResponse.Result(r.errorCode(), r.errorMessage())).toList());
    }
}
