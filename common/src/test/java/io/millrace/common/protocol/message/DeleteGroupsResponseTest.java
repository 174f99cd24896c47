package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class DeleteGroupsResponseTest extends CompatibilityContract<DeleteGroupsResponseData, DeleteGroupsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.DELETE_GROUPS);
    }

    public DeleteGroupsResponseTest(short version) {
        super(version);
    }

    @Override
    protected DeleteGroupsResponseData kafkaSample() {
        return GroupSamples.deleteGroupsResponse();
    }

    @Override
    protected DeleteGroupsResponseData kafkaRead(ByteBuffer buffer) {
        return new DeleteGroupsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected DeleteGroupsResponse millraceRead(ByteBuffer buffer) {
        return DeleteGroupsResponse.parse(buffer, version);
    }

    @Override
    protected DeleteGroupsResponse toMillrace(DeleteGroupsResponseData k) {
        return new DeleteGroupsResponse(k.throttleTimeMs(), k.results().stream()
            .map(r -> new DeleteGroupsResponse.Result(r.groupId(), r.errorCode())).toList());
    }
}
