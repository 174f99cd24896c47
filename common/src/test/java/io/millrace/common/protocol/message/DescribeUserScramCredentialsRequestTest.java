package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeUserScramCredentialsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeUserScramCredentialsRequestTest
    extends CompatibilityContract<DescribeUserScramCredentialsRequestData, DescribeUserScramCredentialsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS);
    }

    public DescribeUserScramCredentialsRequestTest(short version) {
        super(version);
    }

    @Override
    protected DescribeUserScramCredentialsRequestData kafkaSample() {
        return new DescribeUserScramCredentialsRequestData().setUsers(List.of(
            new DescribeUserScramCredentialsRequestData.UserName().setName("alice"),
            new DescribeUserScramCredentialsRequestData.UserName().setName("bob")));
    }

    @Override
    protected DescribeUserScramCredentialsRequestData kafkaRead(ByteBuffer buffer) {
        return new DescribeUserScramCredentialsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeUserScramCredentialsRequest millraceRead(ByteBuffer buffer) {
        return DescribeUserScramCredentialsRequest.parse(buffer, version);
    }

    @Override
    protected DescribeUserScramCredentialsRequest toMillrace(DescribeUserScramCredentialsRequestData k) {
        return new DescribeUserScramCredentialsRequest(k.users() == null ? null
            : k.users().stream().map(DescribeUserScramCredentialsRequestData.UserName::name).toList());
    }
}
