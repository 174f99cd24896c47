package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class CreateTopicsRequestTest extends CompatibilityContract<CreateTopicsRequestData, CreateTopicsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.CREATE_TOPICS);
    }

    public CreateTopicsRequestTest(short version) {
        super(version);
    }

    @Override
    protected CreateTopicsRequestData kafkaSample() {
        return createTopicsRequest();
    }

    @Override
    protected CreateTopicsRequestData kafkaRead(ByteBuffer buffer) {
        return new CreateTopicsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected CreateTopicsRequest millraceRead(ByteBuffer buffer) {
        return CreateTopicsRequest.parse(buffer, version);
    }

    @Override
    protected CreateTopicsRequest toMillrace(CreateTopicsRequestData k) {
        return new CreateTopicsRequest(k.topics().stream()
            .map(t -> new CreateTopicsRequest.CreatableTopic(t.name(), t.numPartitions(), t.replicationFactor(),
                t.assignments().stream().map(a -> new CreateTopicsRequest.ReplicaAssignment(a.partitionIndex(), a.brokerIds())).toList(),
                t.configs().stream().map(c -> new CreateTopicsRequest.TopicConfig(c.name(), c.value())).toList()))
            .toList(), k.timeoutMs(), k.validateOnly());
    }
}
