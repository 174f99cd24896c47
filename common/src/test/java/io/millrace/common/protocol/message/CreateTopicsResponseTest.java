package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class CreateTopicsResponseTest extends CompatibilityContract<CreateTopicsResponseData, CreateTopicsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.CREATE_TOPICS);
    }

    public CreateTopicsResponseTest(short version) {
        super(version);
    }

    @Override
    protected CreateTopicsResponseData kafkaSample() {
        return createTopicsResponse();
    }

    @Override
    protected CreateTopicsResponseData kafkaRead(ByteBuffer buffer) {
        return new CreateTopicsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected CreateTopicsResponse millraceRead(ByteBuffer buffer) {
        return CreateTopicsResponse.parse(buffer, version);
    }

    @Override
    protected CreateTopicsResponse toMillrace(CreateTopicsResponseData k) {
        return new CreateTopicsResponse(k.throttleTimeMs(), k.topics().stream()
            .map(t -> new CreateTopicsResponse.CreatableTopicResult(t.name(), uuid(t.topicId()), t.errorCode(), t.errorMessage(),
                t.numPartitions(), t.replicationFactor(), t.configs() == null ? null : t.configs().stream()
                    .map(c -> new CreateTopicsResponse.TopicConfig(c.name(), c.value(), c.readOnly(), c.configSource(), c.isSensitive()))
                    .toList()))
            .toList());
    }
}
