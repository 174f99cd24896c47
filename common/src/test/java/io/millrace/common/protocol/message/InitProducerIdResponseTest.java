package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class InitProducerIdResponseTest extends CompatibilityContract<InitProducerIdResponseData, InitProducerIdResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.INIT_PRODUCER_ID);
    }

    public InitProducerIdResponseTest(short version) {
        super(version);
    }

    @Override
    protected InitProducerIdResponseData kafkaSample() {
        return initProducerIdResponse();
    }

    @Override
    protected InitProducerIdResponseData kafkaRead(ByteBuffer buffer) {
        return new InitProducerIdResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected InitProducerIdResponse millraceRead(ByteBuffer buffer) {
        return InitProducerIdResponse.parse(buffer, version);
    }

    @Override
    protected InitProducerIdResponse toMillrace(InitProducerIdResponseData k) {
        return new InitProducerIdResponse(k.throttleTimeMs(), k.errorCode(), k.producerId(), k.producerEpoch());
    }
}
