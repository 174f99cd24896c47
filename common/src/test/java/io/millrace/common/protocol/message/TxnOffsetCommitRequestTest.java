package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class TxnOffsetCommitRequestTest extends CompatibilityContract<TxnOffsetCommitRequestData, TxnOffsetCommitRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.TXN_OFFSET_COMMIT);
    }

    public TxnOffsetCommitRequestTest(short version) {
        super(version);
    }

    @Override
    protected TxnOffsetCommitRequestData kafkaSample() {
        TxnOffsetCommitRequestData data = new TxnOffsetCommitRequestData().setTransactionalId("payments-1")
            .setGroupId("order-processor").setProducerId(4_000L).setProducerEpoch((short) 3).setTopics(List.of(
                new TxnOffsetCommitRequestTopic().setName("orders").setPartitions(List.of(
                    new TxnOffsetCommitRequestPartition().setPartitionIndex(0).setCommittedOffset(1_234L)
                        .setCommittedLeaderEpoch(5).setCommittedMetadata("batch-9"),
                    new TxnOffsetCommitRequestPartition().setPartitionIndex(2).setCommittedOffset(77L)
                        .setCommittedLeaderEpoch(5).setCommittedMetadata(null))),
                new TxnOffsetCommitRequestTopic().setName("refunds").setPartitions(List.of())));
        if (version >= TxnOffsetCommitRequest.FIRST_MEMBER_VERSION) {
            data.setGenerationId(8).setMemberId("consumer-1-4f2c").setGroupInstanceId("host-3");
        }
        return data;
    }

    @Override
    protected TxnOffsetCommitRequestData kafkaRead(ByteBuffer buffer) {
        return new TxnOffsetCommitRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected TxnOffsetCommitRequest millraceRead(ByteBuffer buffer) {
        return TxnOffsetCommitRequest.parse(buffer, version);
    }

    @Override
    protected TxnOffsetCommitRequest toMillrace(TxnOffsetCommitRequestData k) {
        return new TxnOffsetCommitRequest(k.transactionalId(), k.groupId(), k.producerId(), k.producerEpoch(),
            k.generationId(), k.memberId(), k.groupInstanceId(), k.topics().stream()
                .map(t -> new TxnOffsetCommitRequest.Topic(t.name(), t.partitions().stream()
                    .map(p -> new TxnOffsetCommitRequest.Partition(p.partitionIndex(), p.committedOffset(),
                        p.committedLeaderEpoch(), p.committedMetadata())).toList()))
                .toList());
    }
}
