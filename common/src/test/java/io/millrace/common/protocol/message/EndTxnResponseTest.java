package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.EndTxnResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class EndTxnResponseTest extends CompatibilityContract<EndTxnResponseData, EndTxnResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.END_TXN);
    }

    public EndTxnResponseTest(short version) {
        super(version);
    }

    @Override
    protected EndTxnResponseData kafkaSample() {
        return new EndTxnResponseData().setThrottleTimeMs(2).setErrorCode(Errors.INVALID_PRODUCER_ID_MAPPING.code());
    }

    @Override
    protected EndTxnResponseData kafkaRead(ByteBuffer buffer) {
        return new EndTxnResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected EndTxnResponse millraceRead(ByteBuffer buffer) {
        return EndTxnResponse.parse(buffer, version);
    }

    @Override
    protected EndTxnResponse toMillrace(EndTxnResponseData k) {
        return new EndTxnResponse(k.throttleTimeMs(), k.errorCode());
    }
}
