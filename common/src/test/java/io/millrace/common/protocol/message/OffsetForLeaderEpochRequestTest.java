package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class OffsetForLeaderEpochRequestTest extends CompatibilityContract<OffsetForLeaderEpochRequestData, OffsetForLeaderEpochRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.OFFSET_FOR_LEADER_EPOCH);
    }

    public OffsetForLeaderEpochRequestTest(short version) {
        super(version);
    }

    @Override
    protected OffsetForLeaderEpochRequestData kafkaSample() {
        OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection topics =
            new OffsetForLeaderEpochRequestData.OffsetForLeaderTopicCollection();
        topics.add(new OffsetForLeaderEpochRequestData.OffsetForLeaderTopic().setTopic(KafkaSamples.TOPIC).setPartitions(List.of(
            new OffsetForLeaderEpochRequestData.OffsetForLeaderPartition().setPartition(1).setCurrentLeaderEpoch(7).setLeaderEpoch(5),
            new OffsetForLeaderEpochRequestData.OffsetForLeaderPartition().setPartition(4).setLeaderEpoch(0))));
        OffsetForLeaderEpochRequestData data = new OffsetForLeaderEpochRequestData().setTopics(topics);
        return version >= 3 ? data.setReplicaId(-1) : data;
    }

    @Override
    protected OffsetForLeaderEpochRequestData kafkaRead(ByteBuffer buffer) {
        return new OffsetForLeaderEpochRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected OffsetForLeaderEpochRequest millraceRead(ByteBuffer buffer) {
        return OffsetForLeaderEpochRequest.parse(buffer, version);
    }

    @Override
    protected OffsetForLeaderEpochRequest toMillrace(OffsetForLeaderEpochRequestData k) {
        return new OffsetForLeaderEpochRequest(k.replicaId(), k.topics().stream()
            .map(t -> new OffsetForLeaderEpochRequest.OffsetForLeaderTopic(t.topic(), t.partitions().stream()
                .map(p -> new OffsetForLeaderEpochRequest.OffsetForLeaderPartition(p.partition(), p.currentLeaderEpoch(),
                    p.leaderEpoch())).toList()))
            .toList());
    }
}
