package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ApiVersionsRequestTest extends CompatibilityContract<ApiVersionsRequestData, ApiVersionsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.API_VERSIONS);
    }

    public ApiVersionsRequestTest(short version) {
        super(version);
    }

    @Override
    protected ApiVersionsRequestData kafkaSample() {
        return apiVersionsRequest();
    }

    @Override
    protected ApiVersionsRequestData kafkaRead(ByteBuffer buffer) {
        return new ApiVersionsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ApiVersionsRequest millraceRead(ByteBuffer buffer) {
        return ApiVersionsRequest.parse(buffer, version);
    }

    @Override
    protected ApiVersionsRequest toMillrace(ApiVersionsRequestData k) {
        return new ApiVersionsRequest(k.clientSoftwareName(), k.clientSoftwareVersion());
    }
}
