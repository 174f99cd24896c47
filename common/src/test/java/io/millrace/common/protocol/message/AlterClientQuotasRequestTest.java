package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.AlterClientQuotasRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class AlterClientQuotasRequestTest extends CompatibilityContract<AlterClientQuotasRequestData, AlterClientQuotasRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.ALTER_CLIENT_QUOTAS);
    }

    public AlterClientQuotasRequestTest(short version) {
        super(version);
    }

    @Override
    protected AlterClientQuotasRequestData kafkaSample() {
        return new AlterClientQuotasRequestData().setValidateOnly(true).setEntries(List.of(
            new AlterClientQuotasRequestData.EntryData()
                .setEntity(List.of(new AlterClientQuotasRequestData.EntityData().setEntityType("user").setEntityName(null)))
                .setOps(List.of(
                    new AlterClientQuotasRequestData.OpData().setKey("consumer_byte_rate").setValue(2048.0).setRemove(false),
                    new AlterClientQuotasRequestData.OpData().setKey("producer_byte_rate").setValue(0.0).setRemove(true)))));
    }

    @Override
    protected AlterClientQuotasRequestData kafkaRead(ByteBuffer buffer) {
        return new AlterClientQuotasRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected AlterClientQuotasRequest millraceRead(ByteBuffer buffer) {
        return AlterClientQuotasRequest.parse(buffer, version);
    }

    @Override
    protected AlterClientQuotasRequest toMillrace(AlterClientQuotasRequestData k) {
        return new AlterClientQuotasRequest(k.entries().stream().map(e -> new AlterClientQuotasRequest.Entry(
            e.entity().stream().map(d -> new ClientQuotaEntity(d.entityType(), d.entityName())).toList(),
            e.ops().stream().map(o -> new AlterClientQuotasRequest.Op(o.key(), o.value(), o.remove())).toList()))
            .toList(), k.validateOnly());
    }
}
