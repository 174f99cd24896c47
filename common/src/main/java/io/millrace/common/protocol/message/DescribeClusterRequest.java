package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;

/**
 * DescribeCluster request (api key 60).
 *
 * <pre>
 * DescribeClusterRequest => include_cluster_authorized_operations endpoint_type include_fenced_brokers TAG_BUFFER
 *   include_cluster_authorized_operations => BOOLEAN
 *   endpoint_type          => INT8      (v1+; 1 brokers, 2 controllers)
 *   include_fenced_brokers => BOOLEAN   (v2+)
 * </pre>
 *
 * Every version is flexible. Version 1 adds endpoint_type, version 2 include_fenced_brokers.
 */
public record DescribeClusterRequest(boolean includeClusterAuthorizedOperations, byte endpointType,
                                     boolean includeFencedBrokers) implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_CLUSTER;

    /** Kafka's endpoint types: what a client asks to have described. */
    public static final byte ENDPOINT_BROKERS = 1;
    public static final byte ENDPOINT_CONTROLLERS = 2;

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeClusterRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        boolean includeOperations = reader.readBool();
        byte endpointType = version >= 1 ? reader.readInt8() : ENDPOINT_BROKERS;
        boolean includeFenced = version >= 2 && reader.readBool();
        reader.readTaggedFields();
        return new DescribeClusterRequest(includeOperations, endpointType, includeFenced);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeBool(includeClusterAuthorizedOperations);
        if (version >= 1) {
            writer.writeInt8(endpointType);
        }
        if (version >= 2) {
            writer.writeBool(includeFencedBrokers);
        }
        writer.writeTaggedFields();
    }
}
