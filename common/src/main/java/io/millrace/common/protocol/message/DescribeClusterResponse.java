package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeCluster response (api key 60).
 *
 * <pre>
 * DescribeClusterResponse => throttle_time_ms error_code error_message endpoint_type cluster_id controller_id
 *                            [brokers] cluster_authorized_operations TAG_BUFFER
 *   throttle_time_ms => INT32
 *   error_code       => INT16
 *   error_message    => NULLABLE_STRING
 *   endpoint_type    => INT8     (v1+; the endpoint type described, 1 brokers)
 *   cluster_id       => STRING
 *   controller_id    => INT32    (-1: none)
 *   brokers => broker_id host port rack is_fenced TAG_BUFFER
 *     broker_id => INT32   host => STRING   port => INT32   rack => NULLABLE_STRING
 *     is_fenced => BOOLEAN   (v2+)
 *   cluster_authorized_operations => INT32   (Integer.MIN_VALUE: not asked for)
 * </pre>
 *
 * Every version is flexible. Version 1 adds endpoint_type, version 2 a broker's is_fenced.
 */
public record DescribeClusterResponse(int throttleTimeMs, short errorCode, String errorMessage, byte endpointType,
                                      String clusterId, int controllerId, List<Broker> brokers,
                                      int clusterAuthorizedOperations) implements ApiMessage {

    private static final ApiKey API = ApiKey.DESCRIBE_CLUSTER;

    /** Kafka's value for authorized operations that were not asked for. */
    public static final int OPERATIONS_NOT_ASKED = Integer.MIN_VALUE;

    /** One broker: where clients reach it, and whether it is fenced (never, in Millrace). */
    public record Broker(int brokerId, String host, int port, String rack, boolean fenced) {

        private static Broker read(ProtocolReader reader, short version) {
            int id = reader.readInt32();
            String host = reader.readString();
            int port = reader.readInt32();
            String rack = reader.readNullableString();
            boolean fenced = version >= 2 && reader.readBool();
            reader.readTaggedFields();
            return new Broker(id, host, port, rack, fenced);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeInt32(brokerId);
            writer.writeString(host);
            writer.writeInt32(port);
            writer.writeNullableString(rack);
            if (version >= 2) {
                writer.writeBool(fenced);
            }
            writer.writeTaggedFields();
        }
    }

    public DescribeClusterResponse {
        brokers = List.copyOf(brokers);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeClusterResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        short errorCode = reader.readInt16();
        String errorMessage = reader.readNullableString();
        byte endpointType = version >= 1 ? reader.readInt8() : DescribeClusterRequest.ENDPOINT_BROKERS;
        String clusterId = reader.readString();
        int controllerId = reader.readInt32();
        List<Broker> brokers = reader.readArray(r -> Broker.read(r, version), 11);
        int operations = reader.readInt32();
        reader.readTaggedFields();
        return new DescribeClusterResponse(throttleTimeMs, errorCode, errorMessage, endpointType, clusterId, controllerId,
            brokers, operations);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeInt16(errorCode);
        writer.writeNullableString(errorMessage);
        if (version >= 1) {
            writer.writeInt8(endpointType);
        }
        writer.writeString(clusterId);
        writer.writeInt32(controllerId);
        writer.writeArray(brokers, (w, b) -> b.write(w, version));
        writer.writeInt32(clusterAuthorizedOperations);
        writer.writeTaggedFields();
    }
}
