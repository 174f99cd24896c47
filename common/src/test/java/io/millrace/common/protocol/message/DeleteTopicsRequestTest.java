package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DeleteTopicsRequestTest extends CompatibilityContract<DeleteTopicsRequestData, DeleteTopicsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DELETE_TOPICS);
    }

    public DeleteTopicsRequestTest(short version) {
        super(version);
    }

    @Override
    protected DeleteTopicsRequestData kafkaSample() {
        return deleteTopicsRequest(version);
    }

    @Override
    protected DeleteTopicsRequestData kafkaRead(ByteBuffer buffer) {
        return new DeleteTopicsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DeleteTopicsRequest millraceRead(ByteBuffer buffer) {
        return DeleteTopicsRequest.parse(buffer, version);
    }

    @Override
    protected DeleteTopicsRequest toMillrace(DeleteTopicsRequestData k) {
        List<DeleteTopicsRequest.TopicRef> topics = version >= 6
            ? k.topics().stream().map(t -> new DeleteTopicsRequest.TopicRef(t.name(), uuid(t.topicId()))).toList()
            : k.topicNames().stream().map(DeleteTopicsRequest.TopicRef::named).toList();
        return new DeleteTopicsRequest(topics, k.timeoutMs());
    }
}
