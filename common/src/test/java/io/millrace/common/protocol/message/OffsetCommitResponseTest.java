package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class OffsetCommitResponseTest extends CompatibilityContract<OffsetCommitResponseData, OffsetCommitResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.OFFSET_COMMIT);
    }

    public OffsetCommitResponseTest(short version) {
        super(version);
    }

    @Override
    protected OffsetCommitResponseData kafkaSample() {
        return GroupSamples.offsetCommitResponse();
    }

    @Override
    protected OffsetCommitResponseData kafkaRead(ByteBuffer buffer) {
        return new OffsetCommitResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected OffsetCommitResponse millraceRead(ByteBuffer buffer) {
        return OffsetCommitResponse.parse(buffer, version);
    }

    @Override
    protected OffsetCommitResponse toMillrace(OffsetCommitResponseData k) {
        return new OffsetCommitResponse(k.throttleTimeMs(), k.topics().stream().map(t -> new OffsetCommitResponse.Topic(t.name(),
            t.partitions().stream().map(p -> new OffsetCommitResponse.Partition(p.partitionIndex(), p.errorCode())).toList()))
            .toList());
    }
}
