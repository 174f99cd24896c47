package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ElectLeadersRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ElectLeadersRequestTest extends CompatibilityContract<ElectLeadersRequestData, ElectLeadersRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.ELECT_LEADERS);
    }

    public ElectLeadersRequestTest(short version) {
        super(version);
    }

    @Override
    protected ElectLeadersRequestData kafkaSample() {
        ElectLeadersRequestData.TopicPartitionsCollection topics = new ElectLeadersRequestData.TopicPartitionsCollection();
        topics.add(new ElectLeadersRequestData.TopicPartitions().setTopic(KafkaSamples.TOPIC).setPartitions(List.of(0, 5)));
        topics.add(new ElectLeadersRequestData.TopicPartitions().setTopic("other").setPartitions(List.of()));
        // version 0 has no election type: only its default, preferred, can be written there
        return new ElectLeadersRequestData().setElectionType(version >= 1 ? ElectLeadersRequest.UNCLEAN : ElectLeadersRequest.PREFERRED)
            .setTopicPartitions(topics).setTimeoutMs(12_345);
    }

    @Override
    protected ElectLeadersRequestData kafkaRead(ByteBuffer buffer) {
        return new ElectLeadersRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ElectLeadersRequest millraceRead(ByteBuffer buffer) {
        return ElectLeadersRequest.parse(buffer, version);
    }

    @Override
    protected ElectLeadersRequest toMillrace(ElectLeadersRequestData k) {
        return new ElectLeadersRequest(k.electionType(), k.topicPartitions() == null ? null : k.topicPartitions().stream()
            .map(t -> new ElectLeadersRequest.TopicPartitions(t.topic(), t.partitions())).toList(), k.timeoutMs());
    }
}
