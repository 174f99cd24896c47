package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ConsumerGroupHeartbeatRequestTest
    extends CompatibilityContract<ConsumerGroupHeartbeatRequestData, ConsumerGroupHeartbeatRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.CONSUMER_GROUP_HEARTBEAT);
    }

    public ConsumerGroupHeartbeatRequestTest(short version) {
        super(version);
    }

    @Override
    protected ConsumerGroupHeartbeatRequestData kafkaSample() {
        ConsumerGroupHeartbeatRequestData data = new ConsumerGroupHeartbeatRequestData()
            .setGroupId("clicks").setMemberId("m-1").setMemberEpoch(7).setInstanceId("host-3").setRackId("rack-a")
            .setRebalanceTimeoutMs(300_000).setSubscribedTopicNames(List.of("page-views", "searches"))
            .setServerAssignor("uniform")
            .setTopicPartitions(List.of(
                new ConsumerGroupHeartbeatRequestData.TopicPartitions().setTopicId(Uuid.fromString("AAAAAAAAAAEAAAAAAAAAAg"))
                    .setPartitions(List.of(0, 3)),
                new ConsumerGroupHeartbeatRequestData.TopicPartitions().setTopicId(Uuid.fromString("qZxc6rmpQ3Gj5mW8Y1f0bw")).setPartitions(List.of())));
        if (version >= 1) {
            data.setSubscribedTopicRegex("page-.*");
        }
        return data;
    }

    @Override
    protected ConsumerGroupHeartbeatRequestData kafkaRead(ByteBuffer buffer) {
        return new ConsumerGroupHeartbeatRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ConsumerGroupHeartbeatRequest millraceRead(ByteBuffer buffer) {
        return ConsumerGroupHeartbeatRequest.parse(buffer, version);
    }

    @Override
    protected ConsumerGroupHeartbeatRequest toMillrace(ConsumerGroupHeartbeatRequestData k) {
        return new ConsumerGroupHeartbeatRequest(k.groupId(), k.memberId(), k.memberEpoch(), k.instanceId(), k.rackId(),
            k.rebalanceTimeoutMs(), k.subscribedTopicNames(), k.subscribedTopicRegex(), k.serverAssignor(),
            k.topicPartitions() == null ? null : k.topicPartitions().stream()
                .map(tp -> new ConsumerGroupHeartbeatRequest.TopicPartitions(
                    new java.util.UUID(tp.topicId().getMostSignificantBits(), tp.topicId().getLeastSignificantBits()),
                    tp.partitions()))
                .toList());
    }
}
