package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ListOffsetsRequestTest extends CompatibilityContract<ListOffsetsRequestData, ListOffsetsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.LIST_OFFSETS);
    }

    public ListOffsetsRequestTest(short version) {
        super(version);
    }

    @Override
    protected ListOffsetsRequestData kafkaSample() {
        return listOffsetsRequest(version);
    }

    @Override
    protected ListOffsetsRequestData kafkaRead(ByteBuffer buffer) {
        return new ListOffsetsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ListOffsetsRequest millraceRead(ByteBuffer buffer) {
        return ListOffsetsRequest.parse(buffer, version);
    }

    @Override
    protected ListOffsetsRequest toMillrace(ListOffsetsRequestData k) {
        return new ListOffsetsRequest(k.replicaId(), k.isolationLevel(), k.topics().stream()
            .map(t -> new ListOffsetsRequest.ListOffsetsTopic(t.name(), t.partitions().stream()
                .map(p -> new ListOffsetsRequest.ListOffsetsPartition(p.partitionIndex(), p.currentLeaderEpoch(), p.timestamp()))
                .toList()))
            .toList());
    }
}
