package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeClientQuotasRequestTest extends CompatibilityContract<DescribeClientQuotasRequestData, DescribeClientQuotasRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_CLIENT_QUOTAS);
    }

    public DescribeClientQuotasRequestTest(short version) {
        super(version);
    }

    @Override
    protected DescribeClientQuotasRequestData kafkaSample() {
        return new DescribeClientQuotasRequestData().setStrict(true).setComponents(List.of(
            new DescribeClientQuotasRequestData.ComponentData().setEntityType("user").setMatchType((byte) 0).setMatch("alice"),
            new DescribeClientQuotasRequestData.ComponentData().setEntityType("client-id").setMatchType((byte) 1)
                .setMatch(null)));
    }

    @Override
    protected DescribeClientQuotasRequestData kafkaRead(ByteBuffer buffer) {
        return new DescribeClientQuotasRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeClientQuotasRequest millraceRead(ByteBuffer buffer) {
        return DescribeClientQuotasRequest.parse(buffer, version);
    }

    @Override
    protected DescribeClientQuotasRequest toMillrace(DescribeClientQuotasRequestData k) {
        return new DescribeClientQuotasRequest(k.components().stream().map(c -> new DescribeClientQuotasRequest.Component(
            c.entityType(), c.matchType(), c.match())).toList(), k.strict());
    }
}
