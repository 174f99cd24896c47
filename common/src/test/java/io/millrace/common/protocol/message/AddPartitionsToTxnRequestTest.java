package io.millrace.common.protocol.message;

import static org.junit.Assert.assertEquals;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class AddPartitionsToTxnRequestTest extends CompatibilityContract<AddPartitionsToTxnRequestData, AddPartitionsToTxnRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.ADD_PARTITIONS_TO_TXN);
    }

    public AddPartitionsToTxnRequestTest(short version) {
        super(version);
    }

    @Override
    protected AddPartitionsToTxnRequestData kafkaSample() {
        return new AddPartitionsToTxnRequestData().setV3AndBelowTransactionalId("payments-1").setV3AndBelowProducerId(4_000L)
            .setV3AndBelowProducerEpoch((short) 3).setV3AndBelowTopics(new AddPartitionsToTxnTopicCollection(List.of(
                new AddPartitionsToTxnTopic().setName("orders").setPartitions(List.of(0, 2)),
                new AddPartitionsToTxnTopic().setName("ledger").setPartitions(List.of(5))).iterator()));
    }

    @Override
    protected AddPartitionsToTxnRequestData kafkaRead(ByteBuffer buffer) {
        return new AddPartitionsToTxnRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected AddPartitionsToTxnRequest millraceRead(ByteBuffer buffer) {
        return AddPartitionsToTxnRequest.parse(buffer, version);
    }

    @Override
    protected AddPartitionsToTxnRequest toMillrace(AddPartitionsToTxnRequestData k) {
        return new AddPartitionsToTxnRequest(k.v3AndBelowTransactionalId(), k.v3AndBelowProducerId(), k.v3AndBelowProducerEpoch(),
            k.v3AndBelowTopics().stream().map(t -> new AddPartitionsToTxnRequest.Topic(t.name(), t.partitions())).toList());
    }

    @Test
    public void theRequestKafkasProducerBuildsIsParsed() {
        org.apache.kafka.common.requests.AddPartitionsToTxnRequest sent = org.apache.kafka.common.requests.AddPartitionsToTxnRequest
            .Builder.forClient("payments-1", 4_000L, (short) 3,
                List.of(new TopicPartition("orders", 0), new TopicPartition("orders", 2))).build(version);
        AddPartitionsToTxnRequest parsed = millraceRead(Wire.kafkaWrite(sent.data(), version));
        assertEquals(new AddPartitionsToTxnRequest("payments-1", 4_000L, (short) 3,
            List.of(new AddPartitionsToTxnRequest.Topic("orders", List.of(0, 2)))), parsed);
    }
}
