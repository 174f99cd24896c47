package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import io.millrace.common.protocol.types.Uuids;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;

/**
 * Metadata response (api key 3).
 *
 * <pre>
 * MetadataResponse => throttle_time_ms [brokers] cluster_id controller_id [topics]
 *                     cluster_authorized_operations error_code TAG_BUFFER
 *   throttle_time_ms => INT32                     (v3+)
 *   brokers => node_id host port rack TAG_BUFFER
 *     node_id => INT32   host => STRING   port => INT32   rack => NULLABLE_STRING
 *   cluster_id    => NULLABLE_STRING              (v2+)
 *   controller_id => INT32
 *   topics => error_code name topic_id is_internal [partitions] topic_authorized_operations TAG_BUFFER
 *     error_code  => INT16
 *     name        => STRING                       (nullable in v12+)
 *     topic_id    => UUID                         (v10+)
 *     is_internal => BOOLEAN
 *     partitions => error_code partition_index leader_id leader_epoch [replica_nodes]
 *                   [isr_nodes] [offline_replicas] TAG_BUFFER
 *       error_code => INT16   partition_index => INT32   leader_id => INT32
 *       leader_epoch => INT32                     (v7+)
 *       replica_nodes, isr_nodes => [INT32]
 *       offline_replicas => [INT32]               (v5+)
 *     topic_authorized_operations => INT32        (v8+)
 *   cluster_authorized_operations => INT32        (v8-v10)
 *   error_code => INT16                           (v13+)
 * </pre>
 *
 * Version 1 (the oldest supported) has rack, controller id and is_internal. Version 2 adds the
 * cluster id, 3 the throttle time, 5 offline replicas, 7 the leader epoch, 8 authorized
 * operations, 9 is flexible, 10 adds topic ids, 11 drops cluster authorized operations, 12 makes
 * names nullable and 13 adds a top-level error code. Millrace sends {@link Uuids#ZERO} as topic id,
 * {@link #UNKNOWN_AUTHORIZED_OPERATIONS} for authorized operations, and leader epoch -1 so that
 * clients skip leader-epoch validation (Millrace keeps no leader epochs).
 */
public record MetadataResponse(int throttleTimeMs, List<Broker> brokers, String clusterId, int controllerId,
                               List<Topic> topics, int clusterAuthorizedOperations, short errorCode)
    implements ApiMessage {

    /** "Authorized operations not computed", Kafka's default for the bitfields. */
    public static final int UNKNOWN_AUTHORIZED_OPERATIONS = Integer.MIN_VALUE;

    private static final ApiKey API = ApiKey.METADATA;

    public record Broker(int nodeId, String host, int port, String rack) {

        private static Broker read(ProtocolReader reader) {
            Broker broker = new Broker(reader.readInt32(), reader.readString(), reader.readInt32(), reader.readNullableString());
            reader.readTaggedFields();
            return broker;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(nodeId);
            writer.writeString(host);
            writer.writeInt32(port);
            writer.writeNullableString(rack);
            writer.writeTaggedFields();
        }
    }

    public record Topic(short errorCode, String name, UUID topicId, boolean isInternal, List<Partition> partitions,
                        int topicAuthorizedOperations) {

        public Topic {
            topicId = topicId == null ? Uuids.ZERO : topicId;
            partitions = List.copyOf(partitions);
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static Topic read(ProtocolReader reader, short version) {
            short errorCode = reader.readInt16();
            String name = version >= 12 ? reader.readNullableString() : reader.readString();
            UUID topicId = version >= 10 ? reader.readUuid() : Uuids.ZERO;
            boolean isInternal = reader.readBool();
            List<Partition> partitions = reader.readArray(r -> Partition.read(r, version), 10);
            int authorizedOperations = version >= 8 ? reader.readInt32() : UNKNOWN_AUTHORIZED_OPERATIONS;
            reader.readTaggedFields();
            return new Topic(errorCode, name, topicId, isInternal, partitions, authorizedOperations);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeInt16(errorCode);
            if (version >= 12) {
                writer.writeNullableString(name);
            } else {
                writer.writeString(name);
            }
            if (version >= 10) {
                writer.writeUuid(topicId);
            }
            writer.writeBool(isInternal);
            writer.writeArray(partitions, (w, p) -> p.write(w, version));
            if (version >= 8) {
                writer.writeInt32(topicAuthorizedOperations);
            }
            writer.writeTaggedFields();
        }
    }

    public record Partition(short errorCode, int partitionIndex, int leaderId, int leaderEpoch,
                            List<Integer> replicaNodes, List<Integer> isrNodes, List<Integer> offlineReplicas) {

        public Partition {
            replicaNodes = List.copyOf(replicaNodes);
            isrNodes = List.copyOf(isrNodes);
            offlineReplicas = List.copyOf(offlineReplicas);
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static Partition read(ProtocolReader reader, short version) {
            short errorCode = reader.readInt16();
            int partitionIndex = reader.readInt32();
            int leaderId = reader.readInt32();
            int leaderEpoch = version >= 7 ? reader.readInt32() : -1;
            List<Integer> replicas = reader.readInt32Array();
            List<Integer> isr = reader.readInt32Array();
            List<Integer> offline = version >= 5 ? reader.readInt32Array() : List.of();
            reader.readTaggedFields();
            return new Partition(errorCode, partitionIndex, leaderId, leaderEpoch, replicas, isr, offline);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeInt16(errorCode);
            writer.writeInt32(partitionIndex);
            writer.writeInt32(leaderId);
            if (version >= 7) {
                writer.writeInt32(leaderEpoch);
            }
            writer.writeInt32Array(replicaNodes);
            writer.writeInt32Array(isrNodes);
            if (version >= 5) {
                writer.writeInt32Array(offlineReplicas);
            }
            writer.writeTaggedFields();
        }
    }

    public MetadataResponse {
        brokers = List.copyOf(brokers);
        topics = List.copyOf(topics);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static MetadataResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = version >= 3 ? reader.readInt32() : 0;
        List<Broker> brokers = reader.readArray(Broker::read, 8);
        String clusterId = version >= 2 ? reader.readNullableString() : null;
        int controllerId = reader.readInt32();
        List<Topic> topics = reader.readArray(r -> Topic.read(r, version), 4);
        int clusterOps = version >= 8 && version <= 10 ? reader.readInt32() : UNKNOWN_AUTHORIZED_OPERATIONS;
        short errorCode = version >= 13 ? reader.readInt16() : 0;
        reader.readTaggedFields();
        return new MetadataResponse(throttleTimeMs, brokers, clusterId, controllerId, topics, clusterOps, errorCode);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version >= 3) {
            writer.writeInt32(throttleTimeMs);
        }
        writer.writeArray(brokers, (w, b) -> b.write(w));
        if (version >= 2) {
            writer.writeNullableString(clusterId);
        }
        writer.writeInt32(controllerId);
        writer.writeArray(topics, (w, t) -> t.write(w, version));
        if (version >= 8 && version <= 10) {
            writer.writeInt32(clusterAuthorizedOperations);
        }
        if (version >= 13) {
            writer.writeInt16(errorCode);
        }
        writer.writeTaggedFields();
    }
}
