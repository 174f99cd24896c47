package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * CreateAcls request (api key 30): ACLs to add.
 *
 * <pre>
 * CreateAclsRequest => [creations] TAG_BUFFER
 *   creations => resource_type resource_name resource_pattern_type principal host operation
 *                permission_type TAG_BUFFER
 * </pre>
 *
 * Each creation is an {@link AclBinding} with no null string. Version 2 is flexible.
 */
public record CreateAclsRequest(List<AclBinding> creations) implements ApiMessage {

    private static final ApiKey API = ApiKey.CREATE_ACLS;

    public CreateAclsRequest {
        creations = List.copyOf(creations);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static CreateAclsRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        List<AclBinding> creations = AclBinding.readStructs(reader, AclBinding::readBinding);
        reader.readTaggedFields();
        return new CreateAclsRequest(creations);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        AclBinding.writeStructs(writer, creations);
        writer.writeTaggedFields();
    }
}
