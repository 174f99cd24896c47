package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class OffsetDeleteResponseTest extends CompatibilityContract<OffsetDeleteResponseData, OffsetDeleteResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.OFFSET_DELETE);
    }

    public OffsetDeleteResponseTest(short version) {
        super(version);
    }

    @Override
    protected OffsetDeleteResponseData kafkaSample() {
        return GroupSamples.offsetDeleteResponse();
    }

    @Override
    protected OffsetDeleteResponseData kafkaRead(ByteBuffer buffer) {
        return new OffsetDeleteResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected OffsetDeleteResponse millraceRead(ByteBuffer buffer) {
        return OffsetDeleteResponse.parse(buffer, version);
    }

    @Override
    protected OffsetDeleteResponse toMillrace(OffsetDeleteResponseData k) {
        return new OffsetDeleteResponse(k.errorCode(), k.throttleTimeMs(), k.topics().stream().map(t -> new OffsetDeleteResponse.Topic(
            t.name(), t.partitions().stream().map(p -> new OffsetDeleteResponse.Partition(p.partitionIndex(), p.errorCode())).toList()))
            .toList());
    }
}
