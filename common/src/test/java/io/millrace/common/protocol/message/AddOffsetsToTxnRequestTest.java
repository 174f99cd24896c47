package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class AddOffsetsToTxnRequestTest extends CompatibilityContract<AddOffsetsToTxnRequestData, AddOffsetsToTxnRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.ADD_OFFSETS_TO_TXN);
    }

    public AddOffsetsToTxnRequestTest(short version) {
        super(version);
    }

    @Override
    protected AddOffsetsToTxnRequestData kafkaSample() {
        return new AddOffsetsToTxnRequestData().setTransactionalId("payments-1").setProducerId(4_000L)
            .setProducerEpoch((short) 3).setGroupId("order-processor");
    }

    @Override
    protected AddOffsetsToTxnRequestData kafkaRead(ByteBuffer buffer) {
        return new AddOffsetsToTxnRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected AddOffsetsToTxnRequest millraceRead(ByteBuffer buffer) {
        return AddOffsetsToTxnRequest.parse(buffer, version);
    }

    @Override
    protected AddOffsetsToTxnRequest toMillrace(AddOffsetsToTxnRequestData k) {
        return new AddOffsetsToTxnRequest(k.transactionalId(), k.producerId(), k.producerEpoch(), k.groupId());
    }
}
