package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class InitProducerIdRequestTest extends CompatibilityContract<InitProducerIdRequestData, InitProducerIdRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.INIT_PRODUCER_ID);
    }

    public InitProducerIdRequestTest(short version) {
        super(version);
    }

    @Override
    protected InitProducerIdRequestData kafkaSample() {
        return initProducerIdRequest(version);
    }

    @Override
    protected InitProducerIdRequestData kafkaRead(ByteBuffer buffer) {
        return new InitProducerIdRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected InitProducerIdRequest millraceRead(ByteBuffer buffer) {
        return InitProducerIdRequest.parse(buffer, version);
    }

    @Override
    protected InitProducerIdRequest toMillrace(InitProducerIdRequestData k) {
        return new InitProducerIdRequest(k.transactionalId(), k.transactionTimeoutMs(), k.producerId(), k.producerEpoch());
    }
}
