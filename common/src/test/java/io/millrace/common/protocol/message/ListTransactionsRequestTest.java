package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ListTransactionsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ListTransactionsRequestTest extends CompatibilityContract<ListTransactionsRequestData, ListTransactionsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.LIST_TRANSACTIONS);
    }

    public ListTransactionsRequestTest(short version) {
        super(version);
    }

    @Override
    protected ListTransactionsRequestData kafkaSample() {
        ListTransactionsRequestData data = new ListTransactionsRequestData().setStateFilters(List.of("Ongoing", "Bogus"))
            .setProducerIdFilters(List.of(7L, 9L));
        if (version >= ListTransactionsRequest.FIRST_DURATION_VERSION) {
            data.setDurationFilter(60_000L);
        }
        if (version >= ListTransactionsRequest.FIRST_PATTERN_VERSION) {
            data.setTransactionalIdPattern("pay.*");
        }
        return data;
    }

    @Override
    protected ListTransactionsRequestData kafkaRead(ByteBuffer buffer) {
        return new ListTransactionsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ListTransactionsRequest millraceRead(ByteBuffer buffer) {
        return ListTransactionsRequest.parse(buffer, version);
    }

    @Override
    protected ListTransactionsRequest toMillrace(ListTransactionsRequestData k) {
        return new ListTransactionsRequest(k.stateFilters(), k.producerIdFilters(), k.durationFilter(), k.transactionalIdPattern());
    }
}
