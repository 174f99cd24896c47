package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeLogDirsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeLogDirsRequestTest extends CompatibilityContract<DescribeLogDirsRequestData, DescribeLogDirsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_LOG_DIRS);
    }

    public DescribeLogDirsRequestTest(short version) {
        super(version);
    }

    @Override
    protected DescribeLogDirsRequestData kafkaSample() {
        DescribeLogDirsRequestData.DescribableLogDirTopicCollection topics =
            new DescribeLogDirsRequestData.DescribableLogDirTopicCollection();
        topics.add(new DescribeLogDirsRequestData.DescribableLogDirTopic().setTopic(KafkaSamples.TOPIC)
            .setPartitions(List.of(0, 7)));
        topics.add(new DescribeLogDirsRequestData.DescribableLogDirTopic().setTopic("other").setPartitions(List.of()));
        return new DescribeLogDirsRequestData().setTopics(topics);
    }

    @Override
    protected DescribeLogDirsRequestData kafkaRead(ByteBuffer buffer) {
        return new DescribeLogDirsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeLogDirsRequest millraceRead(ByteBuffer buffer) {
        return DescribeLogDirsRequest.parse(buffer, version);
    }

    @Override
    protected DescribeLogDirsRequest toMillrace(DescribeLogDirsRequestData k) {
        return new DescribeLogDirsRequest(k.topics() == null ? null : k.topics().stream()
            .map(t -> new DescribeLogDirsRequest.DescribableLogDirTopic(t.topic(), t.partitions())).toList());
    }
}
