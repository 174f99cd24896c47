package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;

/**
 * DescribeAcls request (api key 29): the ACLs matching one filter.
 *
 * <pre>
 * DescribeAclsRequest => resource_type_filter resource_name_filter pattern_type_filter principal_filter
 *                        host_filter operation permission_type TAG_BUFFER
 * </pre>
 *
 * The fields are those of {@link AclBinding}, strings nullable. Version 1 is the oldest Kafka 4 reads;
 * version 2 is flexible; version 3 adds the user resource type (a value, not a field).
 */
public record DescribeAclsRequest(AclBinding filter) implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_ACLS;

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeAclsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        AclBinding filter = AclBinding.readFilter(reader);
        reader.readTaggedFields();
        return new DescribeAclsRequest(filter);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        filter.write(writer);
        writer.writeTaggedFields();
    }
}
