package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import io.millrace.common.protocol.types.RecordsPayload;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class FetchResponseTest extends CompatibilityContract<FetchResponseData, FetchResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.FETCH);
    }

    public FetchResponseTest(short version) {
        super(version);
    }

    @Override
    protected FetchResponseData kafkaSample() {
        return fetchResponse(version);
    }

    @Override
    protected FetchResponseData kafkaRead(ByteBuffer buffer) {
        return new FetchResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected FetchResponse millraceRead(ByteBuffer buffer) {
        return FetchResponse.parse(buffer, version);
    }

    @Override
    protected FetchResponse toMillrace(FetchResponseData k) {
        return new FetchResponse(k.throttleTimeMs(), k.errorCode(), k.sessionId(), k.responses().stream()
            .map(t -> new FetchResponse.FetchableTopicResponse(t.topic(), t.partitions().stream()
                .map(p -> new FetchResponse.PartitionData(p.partitionIndex(), p.errorCode(), p.highWatermark(),
                    p.lastStableOffset(), p.logStartOffset(), p.abortedTransactions() == null ? null
                        : p.abortedTransactions().stream()
                            .map(a -> new FetchResponse.AbortedTransaction(a.producerId(), a.firstOffset())).toList(),
                    p.preferredReadReplica(),
                    p.records() == null ? null : RecordsPayload.of(buffer((MemoryRecords) p.records())))).toList()))
            .toList());
    }
}
