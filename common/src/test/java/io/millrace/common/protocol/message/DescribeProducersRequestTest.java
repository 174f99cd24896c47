package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeProducersRequestTest extends CompatibilityContract<DescribeProducersRequestData, DescribeProducersRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_PRODUCERS);
    }

    public DescribeProducersRequestTest(short version) {
        super(version);
    }

    @Override
    protected DescribeProducersRequestData kafkaSample() {
        return new DescribeProducersRequestData().setTopics(List.of(
            new DescribeProducersRequestData.TopicRequest().setName(KafkaSamples.TOPIC).setPartitionIndexes(List.of(0, 3)),
            new DescribeProducersRequestData.TopicRequest().setName("other").setPartitionIndexes(List.of())));
    }

    @Override
    protected DescribeProducersRequestData kafkaRead(ByteBuffer buffer) {
        return new DescribeProducersRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeProducersRequest millraceRead(ByteBuffer buffer) {
        return DescribeProducersRequest.parse(buffer, version);
    }

    @Override
    protected DescribeProducersRequest toMillrace(DescribeProducersRequestData k) {
        return new DescribeProducersRequest(k.topics().stream()
            .map(t -> new DescribeProducersRequest.TopicRequest(t.name(), t.partitionIndexes())).toList());
    }
}
