package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.AlterClientQuotasResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class AlterClientQuotasResponseTest extends CompatibilityContract<AlterClientQuotasResponseData, AlterClientQuotasResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.ALTER_CLIENT_QUOTAS);
    }

    public AlterClientQuotasResponseTest(short version) {
        super(version);
    }

    @Override
    protected AlterClientQuotasResponseData kafkaSample() {
        return new AlterClientQuotasResponseData().setThrottleTimeMs(7).setEntries(List.of(
            new AlterClientQuotasResponseData.EntryData().setErrorCode(Errors.INVALID_REQUEST.code())
                .setErrorMessage("no quotas").setEntity(List.of(
                    new AlterClientQuotasResponseData.EntityData().setEntityType("client-id").setEntityName("app")))));
    }

    @Override
    protected AlterClientQuotasResponseData kafkaRead(ByteBuffer buffer) {
        return new AlterClientQuotasResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected AlterClientQuotasResponse millraceRead(ByteBuffer buffer) {
        return AlterClientQuotasResponse.parse(buffer, version);
    }

    @Override
    protected AlterClientQuotasResponse toMillrace(AlterClientQuotasResponseData k) {
        return new AlterClientQuotasResponse(k.throttleTimeMs(), k.entries().stream().map(e -> new AlterClientQuotasResponse.Entry(
            e.errorCode(), e.errorMessage(),
            e.entity().stream().map(d -> new ClientQuotaEntity(d.entityType(), d.entityName())).toList())).toList());
    }
}
