package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ProduceResponseTest extends CompatibilityContract<ProduceResponseData, ProduceResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.PRODUCE);
    }

    public ProduceResponseTest(short version) {
        super(version);
    }

    @Override
    protected ProduceResponseData kafkaSample() {
        return produceResponse();
    }

    @Override
    protected ProduceResponseData kafkaRead(ByteBuffer buffer) {
        return new ProduceResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ProduceResponse millraceRead(ByteBuffer buffer) {
        return ProduceResponse.parse(buffer, version);
    }

    @Override
    protected ProduceResponse toMillrace(ProduceResponseData k) {
        return new ProduceResponse(k.responses().stream()
            .map(t -> new ProduceResponse.TopicResponse(t.name(), t.partitionResponses().stream()
                .map(p -> new ProduceResponse.PartitionResponse(p.index(), p.errorCode(), p.baseOffset(), p.logAppendTimeMs(),
                    p.logStartOffset(), p.recordErrors().stream()
                        .map(e -> new ProduceResponse.RecordError(e.batchIndex(), e.batchIndexErrorMessage())).toList(),
                    p.errorMessage())).toList()))
            .toList(), k.throttleTimeMs());
    }
}
