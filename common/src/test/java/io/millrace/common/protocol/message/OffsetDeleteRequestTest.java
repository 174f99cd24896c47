package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class OffsetDeleteRequestTest extends CompatibilityContract<OffsetDeleteRequestData, OffsetDeleteRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.OFFSET_DELETE);
    }

    public OffsetDeleteRequestTest(short version) {
        super(version);
    }

    @Override
    protected OffsetDeleteRequestData kafkaSample() {
        return GroupSamples.offsetDeleteRequest();
    }

    @Override
    protected OffsetDeleteRequestData kafkaRead(ByteBuffer buffer) {
        return new OffsetDeleteRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected OffsetDeleteRequest millraceRead(ByteBuffer buffer) {
        return OffsetDeleteRequest.parse(buffer, version);
    }

    @Override
    protected OffsetDeleteRequest toMillrace(OffsetDeleteRequestData k) {
        return new OffsetDeleteRequest(k.groupId(), k.topics().stream().map(t -> new OffsetDeleteRequest.Topic(t.name(),
            t.partitions().stream().map(p -> p.partitionIndex()).toList())).toList());
    }
}
