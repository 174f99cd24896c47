package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class OffsetFetchResponseTest extends CompatibilityContract<OffsetFetchResponseData, OffsetFetchResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.OFFSET_FETCH);
    }

    public OffsetFetchResponseTest(short version) {
        super(version);
    }

    @Override
    protected OffsetFetchResponseData kafkaSample() {
        return GroupSamples.offsetFetchResponse(version);
    }

    @Override
    protected OffsetFetchResponseData kafkaRead(ByteBuffer buffer) {
        return new OffsetFetchResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected OffsetFetchResponse millraceRead(ByteBuffer buffer) {
        return OffsetFetchResponse.parse(buffer, version);
    }

    @Override
    protected OffsetFetchResponse toMillrace(OffsetFetchResponseData k) {
        return new OffsetFetchResponse(k.throttleTimeMs(), k.topics().stream().map(t -> new OffsetFetchResponse.Topic(t.name(),
            t.partitions().stream().map(p -> new OffsetFetchResponse.Partition(p.partitionIndex(), p.committedOffset(),
                p.committedLeaderEpoch(), p.metadata(), p.errorCode())).toList())).toList(), k.errorCode(),
            k.groups().stream().map(g -> new OffsetFetchResponse.Group(g.groupId(), g.topics().stream()
                .map(t -> new OffsetFetchResponse.Topic(t.name(), t.partitions().stream()
                    .map(p -> new OffsetFetchResponse.Partition(p.partitionIndex(), p.committedOffset(), p.committedLeaderEpoch(),
                        p.metadata(), p.errorCode())).toList())).toList(), g.errorCode())).toList());
    }
}
