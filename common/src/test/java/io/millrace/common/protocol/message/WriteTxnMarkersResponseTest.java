package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData.WritableTxnMarkerPartitionResult;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData.WritableTxnMarkerResult;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData.WritableTxnMarkerTopicResult;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class WriteTxnMarkersResponseTest extends CompatibilityContract<WriteTxnMarkersResponseData, WriteTxnMarkersResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.WRITE_TXN_MARKERS);
    }

    public WriteTxnMarkersResponseTest(short version) {
        super(version);
    }

    @Override
    protected WriteTxnMarkersResponseData kafkaSample() {
        return new WriteTxnMarkersResponseData().setMarkers(List.of(
            new WritableTxnMarkerResult().setProducerId(4_000L).setTopics(List.of(
                new WritableTxnMarkerTopicResult().setName("orders").setPartitions(List.of(
                    new WritableTxnMarkerPartitionResult().setPartitionIndex(0).setErrorCode((short) 0),
                    new WritableTxnMarkerPartitionResult().setPartitionIndex(2)
                        .setErrorCode(Errors.TRANSACTION_COORDINATOR_FENCED.code()))))),
            new WritableTxnMarkerResult().setProducerId(4_001L).setTopics(List.of())));
    }

    @Override
    protected WriteTxnMarkersResponseData kafkaRead(ByteBuffer buffer) {
        return new WriteTxnMarkersResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected WriteTxnMarkersResponse millraceRead(ByteBuffer buffer) {
        return WriteTxnMarkersResponse.parse(buffer, version);
    }

    @Override
    protected WriteTxnMarkersResponse toMillrace(WriteTxnMarkersResponseData k) {
        return new WriteTxnMarkersResponse(k.markers().stream().map(m -> new WriteTxnMarkersResponse.MarkerResult(m.producerId(),
            m.topics().stream().map(t -> new WriteTxnMarkersResponse.TopicResult(t.name(), t.partitions().stream()
                .map(p -> new WriteTxnMarkersResponse.PartitionResult(p.partitionIndex(), p.errorCode())).toList())).toList()))
            .toList());
    }
}
