package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class OffsetCommitRequestTest extends CompatibilityContract<OffsetCommitRequestData, OffsetCommitRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.OFFSET_COMMIT);
    }

    public OffsetCommitRequestTest(short version) {
        super(version);
    }

    @Override
    protected OffsetCommitRequestData kafkaSample() {
        return GroupSamples.offsetCommitRequest(version);
    }

    @Override
    protected OffsetCommitRequestData kafkaRead(ByteBuffer buffer) {
        return new OffsetCommitRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected OffsetCommitRequest millraceRead(ByteBuffer buffer) {
        return OffsetCommitRequest.parse(buffer, version);
    }

    @Override
    protected OffsetCommitRequest toMillrace(OffsetCommitRequestData k) {
        return new OffsetCommitRequest(k.groupId(), k.generationIdOrMemberEpoch(), k.memberId(), k.retentionTimeMs(),
            k.groupInstanceId(), k.topics().stream().map(t -> new OffsetCommitRequest.Topic(t.name(), t.partitions().stream()
                .map(p -> new OffsetCommitRequest.Partition(p.partitionIndex(), p.committedOffset(), p.committedLeaderEpoch(),
                    p.committedMetadata())).toList())).toList());
    }
}
