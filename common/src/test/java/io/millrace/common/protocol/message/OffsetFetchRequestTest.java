package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class OffsetFetchRequestTest extends CompatibilityContract<OffsetFetchRequestData, OffsetFetchRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.OFFSET_FETCH);
    }

    public OffsetFetchRequestTest(short version) {
        super(version);
    }

    @Override
    protected OffsetFetchRequestData kafkaSample() {
        return GroupSamples.offsetFetchRequest(version);
    }

    @Override
    protected OffsetFetchRequestData kafkaRead(ByteBuffer buffer) {
        return new OffsetFetchRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected OffsetFetchRequest millraceRead(ByteBuffer buffer) {
        return OffsetFetchRequest.parse(buffer, version);
    }

    @Override
    protected OffsetFetchRequest toMillrace(OffsetFetchRequestData k) {
        List<OffsetFetchRequest.Topic> topics = k.topics() == null ? null : k.topics().stream()
            .map(t -> new OffsetFetchRequest.Topic(t.name(), t.partitionIndexes())).toList();
        return new OffsetFetchRequest(k.groupId(), topics, k.requireStable(), k.groups().stream()
            .map(g -> new OffsetFetchRequest.Group(g.groupId(), g.memberId(), g.memberEpoch(), g.topics() == null ? null
                : g.topics().stream().map(t -> new OffsetFetchRequest.Topic(t.name(), t.partitionIndexes())).toList()))
            .toList());
    }
}
