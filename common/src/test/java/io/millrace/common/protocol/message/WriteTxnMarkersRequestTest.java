package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData.WritableTxnMarker;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData.WritableTxnMarkerTopic;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class WriteTxnMarkersRequestTest extends CompatibilityContract<WriteTxnMarkersRequestData, WriteTxnMarkersRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.WRITE_TXN_MARKERS);
    }

    public WriteTxnMarkersRequestTest(short version) {
        super(version);
    }

    @Override
    protected WriteTxnMarkersRequestData kafkaSample() {
        return new WriteTxnMarkersRequestData().setMarkers(List.of(
            new WritableTxnMarker().setProducerId(4_000L).setProducerEpoch((short) 3).setTransactionResult(true)
                .setCoordinatorEpoch(12).setTopics(List.of(
                    new WritableTxnMarkerTopic().setName("orders").setPartitionIndexes(List.of(0, 2)),
                    new WritableTxnMarkerTopic().setName("__consumer_offsets").setPartitionIndexes(List.of(17)))),
            new WritableTxnMarker().setProducerId(4_001L).setProducerEpoch((short) 0).setTransactionResult(false)
                .setCoordinatorEpoch(12).setTopics(List.of())));
    }

    @Override
    protected WriteTxnMarkersRequestData kafkaRead(ByteBuffer buffer) {
        return new WriteTxnMarkersRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected WriteTxnMarkersRequest millraceRead(ByteBuffer buffer) {
        return WriteTxnMarkersRequest.parse(buffer, version);
    }

    @Override
    protected WriteTxnMarkersRequest toMillrace(WriteTxnMarkersRequestData k) {
        return new WriteTxnMarkersRequest(k.markers().stream().map(m -> new WriteTxnMarkersRequest.Marker(m.producerId(),
            m.producerEpoch(), m.transactionResult(), m.topics().stream()
                .map(t -> new WriteTxnMarkersRequest.Topic(t.name(), t.partitionIndexes())).toList(),
            m.coordinatorEpoch())).toList());
    }
}
