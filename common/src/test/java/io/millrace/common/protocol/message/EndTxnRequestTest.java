package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class EndTxnRequestTest extends CompatibilityContract<EndTxnRequestData, EndTxnRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.END_TXN);
    }

    public EndTxnRequestTest(short version) {
        super(version);
    }

    @Override
    protected EndTxnRequestData kafkaSample() {
        return new EndTxnRequestData().setTransactionalId("payments-1").setProducerId(4_000L).setProducerEpoch((short) 3)
            .setCommitted(true);
    }

    @Override
    protected EndTxnRequestData kafkaRead(ByteBuffer buffer) {
        return new EndTxnRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected EndTxnRequest millraceRead(ByteBuffer buffer) {
        return EndTxnRequest.parse(buffer, version);
    }

    @Override
    protected EndTxnRequest toMillrace(EndTxnRequestData k) {
        return new EndTxnRequest(k.transactionalId(), k.producerId(), k.producerEpoch(), k.committed());
    }
}
