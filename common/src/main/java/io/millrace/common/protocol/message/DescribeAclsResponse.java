package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeAcls response (api key 29).
 *
 * <pre>
 * DescribeAclsResponse => throttle_time_ms error_code error_message [resources] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   error_code       => INT16            SECURITY_DISABLED from a broker with no authorizer
 *   error_message    => NULLABLE_STRING
 *   resources => resource_type resource_name pattern_type [acls] TAG_BUFFER
 *     resource_type => INT8
 *     resource_name => STRING
 *     pattern_type  => INT8
 *     acls => principal host operation permission_type TAG_BUFFER
 *       principal       => STRING
 *       host            => STRING
 *       operation       => INT8
 *       permission_type => INT8
 * </pre>
 */
public record DescribeAclsResponse(int throttleTimeMs, short errorCode, String errorMessage, List<Resource> resources)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_ACLS;

    /** One resource pattern and the entries on it. */
    public record Resource(byte resourceType, String resourceName, byte patternType, List<AclDescription> acls) {

        public Resource {
            acls = List.copyOf(acls);
        }

        private static Resource read(ProtocolReader reader) {
            Resource resource = new Resource(reader.readInt8(), reader.readString(), reader.readInt8(),
                reader.readArray(AclDescription::read, 5));
            reader.readTaggedFields();
            return resource;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt8(resourceType);
            writer.writeString(resourceName);
            writer.writeInt8(patternType);
            writer.writeArray(acls, (w, a) -> a.write(w));
            writer.writeTaggedFields();
        }
    }

    /** One entry: who may or may not do what, from where. */
    public record AclDescription(String principal, String host, byte operation, byte permissionType) {

        private static AclDescription read(ProtocolReader reader) {
            AclDescription acl = new AclDescription(reader.readString(), reader.readString(), reader.readInt8(),
                reader.readInt8());
            reader.readTaggedFields();
            return acl;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(principal);
            writer.writeString(host);
            writer.writeInt8(operation);
            writer.writeInt8(permissionType);
            writer.writeTaggedFields();
        }
    }

    public DescribeAclsResponse {
        resources = List.copyOf(resources);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeAclsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        DescribeAclsResponse response = new DescribeAclsResponse(reader.readInt32(), reader.readInt16(),
            reader.readNullableString(), reader.readArray(Resource::read, 5));
        reader.readTaggedFields();
        return response;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeInt16(errorCode);
        writer.writeNullableString(errorMessage);
        writer.writeArray(resources, (w, r) -> r.write(w));
        writer.writeTaggedFields();
    }
}
