package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ListTransactionsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ListTransactionsResponseTest extends CompatibilityContract<ListTransactionsResponseData, ListTransactionsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.LIST_TRANSACTIONS);
    }

    public ListTransactionsResponseTest(short version) {
        super(version);
    }

    @Override
    protected ListTransactionsResponseData kafkaSample() {
        return new ListTransactionsResponseData().setThrottleTimeMs(4).setErrorCode((short) 0)
            .setUnknownStateFilters(List.of("Bogus")).setTransactionStates(List.of(
                new ListTransactionsResponseData.TransactionState().setTransactionalId("payments").setProducerId(12L)
                    .setTransactionState("Ongoing")));
    }

    @Override
    protected ListTransactionsResponseData kafkaRead(ByteBuffer buffer) {
        return new ListTransactionsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ListTransactionsResponse millraceRead(ByteBuffer buffer) {
        return ListTransactionsResponse.parse(buffer, version);
    }

    @Override
    protected ListTransactionsResponse toMillrace(ListTransactionsResponseData k) {
        return new ListTransactionsResponse(k.throttleTimeMs(), k.errorCode(), k.unknownStateFilters(),
            k.transactionStates().stream().map(s -> new ListTransactionsResponse.TransactionState(s.transactionalId(),
                s.producerId(), s.transactionState())).toList());
    }
}
