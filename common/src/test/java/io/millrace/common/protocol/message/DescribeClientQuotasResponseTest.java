package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeClientQuotasResponseTest extends CompatibilityContract<DescribeClientQuotasResponseData, DescribeClientQuotasResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_CLIENT_QUOTAS);
    }

    public DescribeClientQuotasResponseTest(short version) {
        super(version);
    }

    @Override
    protected DescribeClientQuotasResponseData kafkaSample() {
        DescribeClientQuotasResponseData.EntryData entry = new DescribeClientQuotasResponseData.EntryData()
            .setEntity(List.of(
                new DescribeClientQuotasResponseData.EntityData().setEntityType("user").setEntityName("alice"),
                new DescribeClientQuotasResponseData.EntityData().setEntityType("client-id").setEntityName(null)))
            .setValues(List.of(
                new DescribeClientQuotasResponseData.ValueData().setKey("producer_byte_rate").setValue(1024.5),
                new DescribeClientQuotasResponseData.ValueData().setKey("request_percentage").setValue(12.25)));
        return new DescribeClientQuotasResponseData().setThrottleTimeMs(7).setErrorCode((short) 0).setErrorMessage(null)
            .setEntries(List.of(entry));
    }

    @Override
    protected DescribeClientQuotasResponseData kafkaRead(ByteBuffer buffer) {
        return new DescribeClientQuotasResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeClientQuotasResponse millraceRead(ByteBuffer buffer) {
        return DescribeClientQuotasResponse.parse(buffer, version);
    }

    @Override
    protected DescribeClientQuotasResponse toMillrace(DescribeClientQuotasResponseData k) {
        return new DescribeClientQuotasResponse(k.throttleTimeMs(), k.errorCode(), k.errorMessage(), k.entries() == null ? null
            : k.entries().stream().map(e -> new DescribeClientQuotasResponse.Entry(
                e.entity().stream().map(d -> new ClientQuotaEntity(d.entityType(), d.entityName())).toList(),
                e.values().stream().map(v -> new DescribeClientQuotasResponse.Value(v.key(), v.value())).toList()))
            .toList());
    }
}
