package io.millrace.common.protocol.message;

import static io.millrace.common.protocol.message.KafkaSamples.*;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class ApiVersionsResponseTest extends CompatibilityContract<ApiVersionsResponseData, ApiVersionsResponse> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.API_VERSIONS);
    }

    public ApiVersionsResponseTest(short version) {
        super(version);
    }

    @Override
    protected ApiVersionsResponseData kafkaSample() {
        return apiVersionsResponse();
    }

    @Override
    protected ApiVersionsResponseData kafkaRead(ByteBuffer buffer) {
        return new ApiVersionsResponseData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected ApiVersionsResponse millraceRead(ByteBuffer buffer) {
        return ApiVersionsResponse.parse(buffer, version);
    }

    @Override
    protected ApiVersionsResponse toMillrace(ApiVersionsResponseData k) {
        return new ApiVersionsResponse(k.errorCode(), k.apiKeys().stream()
            .map(a -> new ApiVersionsResponse.ApiVersion(a.apiKey(), a.minVersion(), a.maxVersion())).toList(), k.throttleTimeMs());
    }
}
