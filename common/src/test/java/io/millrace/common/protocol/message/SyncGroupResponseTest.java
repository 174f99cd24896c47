package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class SyncGroupResponseTest extends CompatibilityContract<SyncGroupResponseData, SyncGroupResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.SYNC_GROUP);
    }

    public SyncGroupResponseTest(short version) {
        super(version);
    }

    @Override
    protected SyncGroupResponseData kafkaSample() {
        return GroupSamples.syncGroupResponse(version);
    }

    @Override
    protected SyncGroupResponseData kafkaRead(ByteBuffer buffer) {
        return new SyncGroupResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected SyncGroupResponse millraceRead(ByteBuffer buffer) {
        return SyncGroupResponse.parse(buffer, version);
    }

    @Override
    protected SyncGroupResponse toMillrace(SyncGroupResponseData k) {
        return new SyncGroupResponse(k.throttleTimeMs(), k.errorCode(), k.protocolType(), k.protocolName(),
            GroupSamples.wrap(k.assignment()));
    }
}
