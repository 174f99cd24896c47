package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DeleteTopicsResponseTest extends CompatibilityContract<DeleteTopicsResponseData, DeleteTopicsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DELETE_TOPICS);
    }

    public DeleteTopicsResponseTest(short version) {
        super(version);
    }

    @Override
    protected DeleteTopicsResponseData kafkaSample() {
        return deleteTopicsResponse(version);
    }

    @Override
    protected DeleteTopicsResponseData kafkaRead(ByteBuffer buffer) {
        return new DeleteTopicsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DeleteTopicsResponse millraceRead(ByteBuffer buffer) {
        return DeleteTopicsResponse.parse(buffer, version);
    }

    @Override
    protected DeleteTopicsResponse toMillrace(DeleteTopicsResponseData k) {
        return new DeleteTopicsResponse(k.throttleTimeMs(), k.responses().stream()
            .map(r -> new DeleteTopicsResponse.DeletableTopicResult(r.name(), uuid(r.topicId()), r.errorCode(), r.errorMessage()))
            .toList());
    }
}
