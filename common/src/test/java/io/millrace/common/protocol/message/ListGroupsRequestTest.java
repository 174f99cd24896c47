package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ListGroupsRequestTest extends CompatibilityContract<ListGroupsRequestData, ListGroupsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.LIST_GROUPS);
    }

    public ListGroupsRequestTest(short version) {
        super(version);
    }

    @Override
    protected ListGroupsRequestData kafkaSample() {
        return GroupSamples.listGroupsRequest(version);
    }

    @Override
    protected ListGroupsRequestData kafkaRead(ByteBuffer buffer) {
        return new ListGroupsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ListGroupsRequest millraceRead(ByteBuffer buffer) {
        return ListGroupsRequest.parse(buffer, version);
    }

    @Override
    protected ListGroupsRequest toMillrace(ListGroupsRequestData k) {
        return new ListGroupsRequest(k.statesFilter(), k.typesFilter());
    }
}
