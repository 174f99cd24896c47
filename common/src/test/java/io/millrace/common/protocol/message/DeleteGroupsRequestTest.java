package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DeleteGroupsRequestTest extends CompatibilityContract<DeleteGroupsRequestData, DeleteGroupsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DELETE_GROUPS);
    }

    public DeleteGroupsRequestTest(short version) {
        super(version);
    }

    @Override
    protected DeleteGroupsRequestData kafkaSample() {
        return GroupSamples.deleteGroupsRequest();
    }

    @Override
    protected DeleteGroupsRequestData kafkaRead(ByteBuffer buffer) {
        return new DeleteGroupsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DeleteGroupsRequest millraceRead(ByteBuffer buffer) {
        return DeleteGroupsRequest.parse(buffer, version);
    }

    @Override
    protected DeleteGroupsRequest toMillrace(DeleteGroupsRequestData k) {
        return new DeleteGroupsRequest(k.groupsNames());
    }
}
