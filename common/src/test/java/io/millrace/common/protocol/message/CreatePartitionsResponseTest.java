package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class CreatePartitionsResponseTest extends CompatibilityContract<CreatePartitionsResponseData, CreatePartitionsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.CREATE_PARTITIONS);
    }

    public CreatePartitionsResponseTest(short version) {
        super(version);
    }

    @Override
    protected CreatePartitionsResponseData kafkaSample() {
        return new CreatePartitionsResponseData().setThrottleTimeMs(7).setResults(List.of(
            new CreatePartitionsResponseData.CreatePartitionsTopicResult().setName(KafkaSamples.TOPIC).setErrorCode((short) 0),
            new CreatePartitionsResponseData.CreatePartitionsTopicResult().setName("other").setErrorCode((short) 37)
                .setErrorMessage("Topic currently has 12 partitions, which is higher than the requested 3.")));
    }

    @Override
    protected CreatePartitionsResponseData kafkaRead(ByteBuffer buffer) {
        return new CreatePartitionsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected CreatePartitionsResponse millraceRead(ByteBuffer buffer) {
        return CreatePartitionsResponse.parse(buffer, version);
    }

    @Override
    protected CreatePartitionsResponse toMillrace(CreatePartitionsResponseData k) {
        return new CreatePartitionsResponse(k.throttleTimeMs(), k.results().stream()
            .map(r -> new CreatePartitionsResponse.CreatePartitionsTopicResult(r.name(), r.errorCode(), r.errorMessage()))
            .toList());
    }
}
