package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class FetchRequestTest extends CompatibilityContract<FetchRequestData, FetchRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.FETCH);
    }

    public FetchRequestTest(short version) {
        super(version);
    }

    @Override
    protected FetchRequestData kafkaSample() {
        return fetchRequest(version);
    }

    @Override
    protected FetchRequestData kafkaRead(ByteBuffer buffer) {
        return new FetchRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected FetchRequest millraceRead(ByteBuffer buffer) {
        return FetchRequest.parse(buffer, version);
    }

    @Override
    protected FetchRequest toMillrace(FetchRequestData k) {
        return new FetchRequest(k.replicaId(), k.maxWaitMs(), k.minBytes(), k.maxBytes(), k.isolationLevel(), k.sessionId(),
            k.sessionEpoch(),
            k.topics().stream().map(t -> new FetchRequest.FetchTopic(t.topic(), t.partitions().stream()
                .map(p -> new FetchRequest.FetchPartition(p.partition(), p.currentLeaderEpoch(), p.fetchOffset(),
                    p.lastFetchedEpoch(), p.logStartOffset(), p.partitionMaxBytes())).toList())).toList(),
            k.forgottenTopicsData().stream().map(f -> new FetchRequest.ForgottenTopic(f.topic(), f.partitions())).toList(),
            k.rackId());
    }
}
