package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class MetadataRequestTest extends CompatibilityContract<MetadataRequestData, MetadataRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.METADATA);
    }

    public MetadataRequestTest(short version) {
        super(version);
    }

    @Override
    protected MetadataRequestData kafkaSample() {
        return metadataRequest(version);
    }

    @Override
    protected MetadataRequestData kafkaRead(ByteBuffer buffer) {
        return new MetadataRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected MetadataRequest millraceRead(ByteBuffer buffer) {
        return MetadataRequest.parse(buffer, version);
    }

    @Override
    protected MetadataRequest toMillrace(MetadataRequestData k) {
        List<MetadataRequest.Topic> topics = k.topics() == null ? null
            : k.topics().stream().map(t -> new MetadataRequest.Topic(uuid(t.topicId()), t.name())).toList();
        return new MetadataRequest(topics, k.allowAutoTopicCreation(), k.includeClusterAuthorizedOperations(),
            k.includeTopicAuthorizedOperations());
    }
}
