package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeUserScramCredentialsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeUserScramCredentialsResponseTest
    extends CompatibilityContract<DescribeUserScramCredentialsResponseData, DescribeUserScramCredentialsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS);
    }

    public DescribeUserScramCredentialsResponseTest(short version) {
        super(version);
    }

    @Override
    protected DescribeUserScramCredentialsResponseData kafkaSample() {
        return new DescribeUserScramCredentialsResponseData().setThrottleTimeMs(3).setErrorCode((short) 0).setErrorMessage(null)
            .setResults(List.of(
                new DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult().setUser("alice")
                    .setErrorCode((short) 0).setCredentialInfos(List.of(
                        new DescribeUserScramCredentialsResponseData.CredentialInfo().setMechanism((byte) 1).setIterations(4096))),
                new DescribeUserScramCredentialsResponseData.DescribeUserScramCredentialsResult().setUser("bob")
                    .setErrorCode(Errors.RESOURCE_NOT_FOUND.code()).setErrorMessage("none")));
    }

    @Override
    protected DescribeUserScramCredentialsResponseData kafkaRead(ByteBuffer buffer) {
        return new DescribeUserScramCredentialsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeUserScramCredentialsResponse millraceRead(ByteBuffer buffer) {
        return DescribeUserScramCredentialsResponse.parse(buffer, version);
    }

    @Override
    protected DescribeUserScramCredentialsResponse toMillrace(DescribeUserScramCredentialsResponseData k) {
        return new DescribeUserScramCredentialsResponse(k.throttleTimeMs(), k.errorCode(), k.errorMessage(),
            k.results().stream().map(r -> new DescribeUserScramCredentialsResponse.Result(r.user(), r.errorCode(),
                r.errorMessage(), r.credentialInfos().stream().map(c -> new DescribeUserScramCredentialsResponse.CredentialInfo(
                    c.mechanism(), c.iterations())).toList())).toList());
    }
}
