package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeLogDirsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeLogDirsResponseTest extends CompatibilityContract<DescribeLogDirsResponseData, DescribeLogDirsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_LOG_DIRS);
    }

    public DescribeLogDirsResponseTest(short version) {
        super(version);
    }

    @Override
    protected DescribeLogDirsResponseData kafkaSample() {
        DescribeLogDirsResponseData.DescribeLogDirsTopic topic = new DescribeLogDirsResponseData.DescribeLogDirsTopic()
            .setName(KafkaSamples.TOPIC).setPartitions(List.of(
                new DescribeLogDirsResponseData.DescribeLogDirsPartition().setPartitionIndex(0).setPartitionSize(1L << 33)
                    .setOffsetLag(5L).setIsFutureKey(true),
                new DescribeLogDirsResponseData.DescribeLogDirsPartition().setPartitionIndex(4).setPartitionSize(0L)));
        return new DescribeLogDirsResponseData().setThrottleTimeMs(9).setErrorCode((short) 31).setResults(List.of(
            new DescribeLogDirsResponseData.DescribeLogDirsResult().setErrorCode((short) 0).setLogDir("/var/millrace/a")
                .setTopics(List.of(topic)).setTotalBytes(1L << 40).setUsableBytes(1L << 39).setIsCordoned(true),
            new DescribeLogDirsResponseData.DescribeLogDirsResult().setErrorCode((short) 56).setLogDir("/var/millrace/b")
                .setTopics(List.of())));
    }

    @Override
    protected DescribeLogDirsResponseData kafkaRead(ByteBuffer buffer) {
        return new DescribeLogDirsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeLogDirsResponse millraceRead(ByteBuffer buffer) {
        return DescribeLogDirsResponse.parse(buffer, version);
    }

    @Override
    protected DescribeLogDirsResponse toMillrace(DescribeLogDirsResponseData k) {
        return new DescribeLogDirsResponse(k.throttleTimeMs(), k.errorCode(), k.results().stream()
            .map(r -> new DescribeLogDirsResponse.LogDirResult(r.errorCode(), r.logDir(), r.topics().stream()
                .map(t -> new DescribeLogDirsResponse.LogDirTopic(t.name(), t.partitions().stream()
                    .map(p -> new DescribeLogDirsResponse.LogDirPartition(p.partitionIndex(), p.partitionSize(), p.offsetLag(),
                        p.isFutureKey()))
                    .toList()))
                .toList(), r.totalBytes(), r.usableBytes(), r.isCordoned()))
            .toList());
    }
}
