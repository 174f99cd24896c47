package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class OffsetForLeaderEpochResponseTest extends CompatibilityContract<OffsetForLeaderEpochResponseData, OffsetForLeaderEpochResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.OFFSET_FOR_LEADER_EPOCH);
    }

    public OffsetForLeaderEpochResponseTest(short version) {
        super(version);
    }

    @Override
    protected OffsetForLeaderEpochResponseData kafkaSample() {
        OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResultCollection topics =
            new OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResultCollection();
        topics.add(new OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult().setTopic(KafkaSamples.TOPIC).setPartitions(List.of(
            new OffsetForLeaderEpochResponseData.EpochEndOffset().setPartition(1).setLeaderEpoch(5).setEndOffset(1_234L),
            new OffsetForLeaderEpochResponseData.EpochEndOffset().setPartition(4).setErrorCode((short) 75))));
        return new OffsetForLeaderEpochResponseData().setThrottleTimeMs(3).setTopics(topics);
    }

    @Override
    protected OffsetForLeaderEpochResponseData kafkaRead(ByteBuffer buffer) {
        return new OffsetForLeaderEpochResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected OffsetForLeaderEpochResponse millraceRead(ByteBuffer buffer) {
        return OffsetForLeaderEpochResponse.parse(buffer, version);
    }

    @Override
    protected OffsetForLeaderEpochResponse toMillrace(OffsetForLeaderEpochResponseData k) {
        return new OffsetForLeaderEpochResponse(k.throttleTimeMs(), k.topics().stream()
            .map(t -> new OffsetForLeaderEpochResponse.OffsetForLeaderTopicResult(t.topic(), t.partitions().stream()
                .map(p -> new OffsetForLeaderEpochResponse.EpochEndOffset(p.errorCode(), p.partition(), p.leaderEpoch(),
                    p.endOffset())).toList()))
            .toList());
    }
}
