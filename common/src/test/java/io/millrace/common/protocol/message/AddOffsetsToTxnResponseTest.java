package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.AddOffsetsToTxnResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class AddOffsetsToTxnResponseTest extends CompatibilityContract<AddOffsetsToTxnResponseData, AddOffsetsToTxnResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.ADD_OFFSETS_TO_TXN);
    }

    public AddOffsetsToTxnResponseTest(short version) {
        super(version);
    }

    @Override
    protected AddOffsetsToTxnResponseData kafkaSample() {
        return new AddOffsetsToTxnResponseData().setThrottleTimeMs(8).setErrorCode(Errors.INVALID_TXN_STATE.code());
    }

    @Override
    protected AddOffsetsToTxnResponseData kafkaRead(ByteBuffer buffer) {
        return new AddOffsetsToTxnResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected AddOffsetsToTxnResponse millraceRead(ByteBuffer buffer) {
        return AddOffsetsToTxnResponse.parse(buffer, version);
    }

    @Override
    protected AddOffsetsToTxnResponse toMillrace(AddOffsetsToTxnResponseData k) {
        return new AddOffsetsToTxnResponse(k.throttleTimeMs(), k.errorCode());
    }
}
