package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DeleteAcls request (api key 31): remove every ACL matching any of the filters.
 *
 * <pre>
 * DeleteAclsRequest => [filters] TAG_BUFFER
 *   filters => resource_type_filter resource_name_filter pattern_type_filter principal_filter
 *              host_filter operation permission_type TAG_BUFFER
 * </pre>
 *
 * Each filter is an {@link AclBinding}, strings nullable. Version 2 is flexible.
 */
public record DeleteAclsRequest(List<AclBinding> filters) implements ApiMessage {

    private static final ApiKey API = ApiKey.DELETE_ACLS;

    public DeleteAclsRequest {
        filters = List.copyOf(filters);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DeleteAclsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<AclBinding> filters = AclBinding.readStructs(reader, AclBinding::readFilter);
        reader.readTaggedFields();
        return new DeleteAclsRequest(filters);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        AclBinding.writeStructs(writer, filters);
        writer.writeTaggedFields();
    }
}
