package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class MetadataResponseTest extends CompatibilityContract<MetadataResponseData, MetadataResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.METADATA);
    }

    public MetadataResponseTest(short version) {
        super(version);
    }

    @Override
    protected MetadataResponseData kafkaSample() {
        return metadataResponse(version);
    }

    @Override
    protected MetadataResponseData kafkaRead(ByteBuffer buffer) {
        return new MetadataResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected MetadataResponse millraceRead(ByteBuffer buffer) {
        return MetadataResponse.parse(buffer, version);
    }

    @Override
    protected MetadataResponse toMillrace(MetadataResponseData k) {
        return new MetadataResponse(k.throttleTimeMs(),
            k.brokers().stream().map(b -> new MetadataResponse.Broker(b.nodeId(), b.host(), b.port(), b.rack())).toList(),
            k.clusterId(), k.controllerId(),
            k.topics().stream().map(t -> new MetadataResponse.Topic(t.errorCode(), t.name(), uuid(t.topicId()), t.isInternal(),
                t.partitions().stream().map(p -> new MetadataResponse.Partition(p.errorCode(), p.partitionIndex(), p.leaderId(),
                    p.leaderEpoch(), p.replicaNodes(), p.isrNodes(), p.offlineReplicas())).toList(),
                t.topicAuthorizedOperations())).toList(),
            k.clusterAuthorizedOperations(), k.errorCode());
    }
}
