package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ListOffsetsResponseTest extends CompatibilityContract<ListOffsetsResponseData, ListOffsetsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.LIST_OFFSETS);
    }

    public ListOffsetsResponseTest(short version) {
        super(version);
    }

    @Override
    protected ListOffsetsResponseData kafkaSample() {
        return listOffsetsResponse(version);
    }

    @Override
    protected ListOffsetsResponseData kafkaRead(ByteBuffer buffer) {
        return new ListOffsetsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ListOffsetsResponse millraceRead(ByteBuffer buffer) {
        return ListOffsetsResponse.parse(buffer, version);
    }

    @Override
    protected ListOffsetsResponse toMillrace(ListOffsetsResponseData k) {
        return new ListOffsetsResponse(k.throttleTimeMs(), k.topics().stream()
            .map(t -> new ListOffsetsResponse.ListOffsetsTopicResponse(t.name(), t.partitions().stream()
                .map(p -> new ListOffsetsResponse.ListOffsetsPartitionResponse(p.partitionIndex(), p.errorCode(), p.timestamp(),
                    p.offset(), p.leaderEpoch())).toList()))
            .toList());
    }
}
