package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class CreatePartitionsRequestTest extends CompatibilityContract<CreatePartitionsRequestData, CreatePartitionsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.CREATE_PARTITIONS);
    }

    public CreatePartitionsRequestTest(short version) {
        super(version);
    }

    @Override
    protected CreatePartitionsRequestData kafkaSample() {
        CreatePartitionsRequestData.CreatePartitionsTopicCollection topics = new CreatePartitionsRequestData.CreatePartitionsTopicCollection();
        topics.add(new CreatePartitionsRequestData.CreatePartitionsTopic().setName(KafkaSamples.TOPIC).setCount(5)
            .setAssignments(List.of(new CreatePartitionsRequestData.CreatePartitionsAssignment().setBrokerIds(List.of(2)),
                new CreatePartitionsRequestData.CreatePartitionsAssignment().setBrokerIds(List.of(0, 1)))));
        topics.add(new CreatePartitionsRequestData.CreatePartitionsTopic().setName("other").setCount(12).setAssignments(null));
        return new CreatePartitionsRequestData().setTopics(topics).setTimeoutMs(30_000).setValidateOnly(true);
    }

    @Override
    protected CreatePartitionsRequestData kafkaRead(ByteBuffer buffer) {
        return new CreatePartitionsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected CreatePartitionsRequest millraceRead(ByteBuffer buffer) {
        return CreatePartitionsRequest.parse(buffer, version);
    }

    @Override
    protected CreatePartitionsRequest toMillrace(CreatePartitionsRequestData k) {
        return new CreatePartitionsRequest(k.topics().stream()
            .map(t -> new CreatePartitionsRequest.CreatePartitionsTopic(t.name(), t.count(), t.assignments() == null ? null
                : t.assignments().stream().map(a -> new CreatePartitionsRequest.CreatePartitionsAssignment(a.brokerIds())).toList()))
            .toList(), k.timeoutMs(), k.validateOnly());
    }
}
