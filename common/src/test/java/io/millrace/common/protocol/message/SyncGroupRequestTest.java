package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class SyncGroupRequestTest extends CompatibilityContract<SyncGroupRequestData, SyncGroupRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.SYNC_GROUP);
    }

    public SyncGroupRequestTest(short version) {
        super(version);
    }

    @Override
    protected SyncGroupRequestData kafkaSample() {
        return GroupSamples.syncGroupRequest(version);
    }

    @Override
    protected SyncGroupRequestData kafkaRead(ByteBuffer buffer) {
        return new SyncGroupRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected SyncGroupRequest millraceRead(ByteBuffer buffer) {
        return SyncGroupRequest.parse(buffer, version);
    }

    @Override
    protected SyncGroupRequest toMillrace(SyncGroupRequestData k) {
        return new SyncGroupRequest(k.groupId(), k.generationId(), k.memberId(), k.groupInstanceId(), k.protocolType(),
            k.protocolName(), k.assignments().stream()
                .map(a -> new SyncGroupRequest.Assignment(a.memberId(), GroupSamples.wrap(a.assignment()))).toList());
    }
}
