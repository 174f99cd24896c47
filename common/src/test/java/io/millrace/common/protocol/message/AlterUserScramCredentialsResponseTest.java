package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class AlterUserScramCredentialsResponseTest
    extends CompatibilityContract<AlterUserScramCredentialsResponseData, AlterUserScramCredentialsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.ALTER_USER_SCRAM_CREDENTIALS);
    }

    public AlterUserScramCredentialsResponseTest(short version) {
        super(version);
    }

    @Override
    protected AlterUserScramCredentialsResponseData kafkaSample() {
        return new AlterUserScramCredentialsResponseData().setThrottleTimeMs(5).setResults(List.of(
            new AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult().setUser("alice")
                .setErrorCode(Errors.UNSUPPORTED_SASL_MECHANISM.code()).setErrorMessage("no SASL"),
            new AlterUserScramCredentialsResponseData.AlterUserScramCredentialsResult().setUser("bob").setErrorCode((short) 0)));
    }

    @Override
    protected AlterUserScramCredentialsResponseData kafkaRead(ByteBuffer buffer) {
        return new AlterUserScramCredentialsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected AlterUserScramCredentialsResponse millraceRead(ByteBuffer buffer) {
        return AlterUserScramCredentialsResponse.parse(buffer, version);
    }

    @Override
    protected AlterUserScramCredentialsResponse toMillrace(AlterUserScramCredentialsResponseData k) {
        return new AlterUserScramCredentialsResponse(k.throttleTimeMs(), k.results().stream().map(r ->
            new AlterUserScramCredentialsResponse.Result(r.user(), r.errorCode(), r.errorMessage())).toList());
    }
}
