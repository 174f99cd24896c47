package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ListGroupsResponseTest extends CompatibilityContract<ListGroupsResponseData, ListGroupsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.LIST_GROUPS);
    }

    public ListGroupsResponseTest(short version) {
        super(version);
    }

    @Override
    protected ListGroupsResponseData kafkaSample() {
        return GroupSamples.listGroupsResponse(version);
    }

    @Override
    protected ListGroupsResponseData kafkaRead(ByteBuffer buffer) {
        return new ListGroupsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ListGroupsResponse millraceRead(ByteBuffer buffer) {
        return ListGroupsResponse.parse(buffer, version);
    }

    @Override
    protected ListGroupsResponse toMillrace(ListGroupsResponseData k) {
        return new ListGroupsResponse(k.throttleTimeMs(), k.errorCode(), k.groups().stream()
            .map(g -> new ListGroupsResponse.Group(g.groupId(), g.protocolType(), g.groupState(), g.groupType())).toList());
    }
}
