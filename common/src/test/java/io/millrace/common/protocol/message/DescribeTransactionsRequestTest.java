package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DescribeTransactionsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DescribeTransactionsRequestTest
    extends CompatibilityContract<DescribeTransactionsRequestData, DescribeTransactionsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DESCRIBE_TRANSACTIONS);
    }

    public DescribeTransactionsRequestTest(short version) {
        super(version);
    }

    @Override
    protected DescribeTransactionsRequestData kafkaSample() {
        return new DescribeTransactionsRequestData().setTransactionalIds(List.of("payments-1", "refunds-7"));
    }

    @Override
    protected DescribeTransactionsRequestData kafkaRead(ByteBuffer buffer) {
        return new DescribeTransactionsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DescribeTransactionsRequest millraceRead(ByteBuffer buffer) {
        return DescribeTransactionsRequest.parse(buffer, version);
    }

    @Override
    protected DescribeTransactionsRequest toMillrace(DescribeTransactionsRequestData k) {
        return new DescribeTransactionsRequest(k.transactionalIds());
    }
}
