package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ProduceRequestTest extends CompatibilityContract<ProduceRequestData, ProduceRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.PRODUCE);
    }

    public ProduceRequestTest(short version) {
        super(version);
    }

    @Override
    protected ProduceRequestData kafkaSample() {
        return produceRequest();
    }

    @Override
    protected ProduceRequestData kafkaRead(ByteBuffer buffer) {
        return new ProduceRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ProduceRequest millraceRead(ByteBuffer buffer) {
        return ProduceRequest.parse(buffer, version);
    }

    @Override
    protected ProduceRequest toMillrace(ProduceRequestData k) {
        return new ProduceRequest(k.transactionalId(), k.acks(), k.timeoutMs(), k.topicData().stream()
            .map(t -> new ProduceRequest.TopicData(t.name(), t.partitionData().stream()
                .map(p -> new ProduceRequest.PartitionData(p.index(), buffer((MemoryRecords) p.records()))).toList()))
            .toList());
    }
}
