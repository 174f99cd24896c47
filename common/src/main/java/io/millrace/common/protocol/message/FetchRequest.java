package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Fetch request (api key 1): read record batches from a position in each partition.
 *
 * <pre>
 * FetchRequest => replica_id max_wait_ms min_bytes max_bytes isolation_level session_id
 *                 session_epoch [topics] [forgotten_topics_data] rack_id TAG_BUFFER
 *   replica_id      => INT32    (-1 for consumers)
 *   max_wait_ms     => INT32
 *   min_bytes       => INT32
 *   max_bytes       => INT32
 *   isolation_level => INT8     (0 read uncommitted, 1 read committed)
 *   session_id      => INT32    (v7+)
 *   session_epoch   => INT32    (v7+)
 *   topics => topic [partitions] TAG_BUFFER
 *     topic => STRING
 *     partitions => partition current_leader_epoch fetch_offset last_fetched_epoch
 *                   log_start_offset partition_max_bytes TAG_BUFFER
 *       partition            => INT32
 *       current_leader_epoch => INT32   (v9+)
 *       fetch_offset         => INT64
 *       last_fetched_epoch   => INT32   (v12+)
 *       log_start_offset     => INT64   (v5+, followers only)
 *       partition_max_bytes  => INT32
 *   forgotten_topics_data => topic [partitions] TAG_BUFFER    (v7+)
 *     topic => STRING   partitions => [INT32]
 *   rack_id => STRING                   (v11+)
 * </pre>
 *
 * Version 4 (the oldest supported) adds the isolation level and record batch v2. Version 5 adds
 * the log start offset. Version 6 has the same layout. Version 7 adds incremental fetch sessions
 * (session id and epoch, forgotten topics). Version 8 has the same layout. Version 9 adds the current
 * leader epoch. Version 10 allows zstd. Version 11 adds the rack id. Version 12 is flexible, adds the
 * last fetched epoch and the tagged field ClusterId (tag 0), which Millrace skips. Not supported:
 * version 13 and later, which name topics by id.
 *
 * <p>Millrace has no fetch sessions: the broker answers every request in full with session id 0,
 * which tells a client not to send incremental requests.
 */
public record FetchRequest(int replicaId, int maxWaitMs, int minBytes, int maxBytes, byte isolationLevel,
                           int sessionId, int sessionEpoch, List<FetchTopic> topics,
                           List<ForgottenTopic> forgottenTopicsData, String rackId) implements ApiMessage {

    private static final ApiKey API = ApiKey.FETCH;

    public record FetchTopic(String topic, List<FetchPartition> partitions) {

        public FetchTopic {
            partitions = List.copyOf(partitions);
        }

        private static FetchTopic read(ProtocolReader reader, short version) {
            FetchTopic topic = new FetchTopic(reader.readString(), reader.readArray(r -> FetchPartition.read(r, version), 16));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(topic);
            writer.writeArray(partitions, (w, p) -> p.write(w, version));
            writer.writeTaggedFields();
        }
    }

    public record FetchPartition(int partition, int currentLeaderEpoch, long fetchOffset, int lastFetchedEpoch,
                                 long logStartOffset, int partitionMaxBytes) {

        /** A consumer's partition entry, with Kafka's defaults for the leader-epoch fields. */
        public static FetchPartition of(int partition, long fetchOffset, int partitionMaxBytes) {
            return new FetchPartition(partition, -1, fetchOffset, -1, -1L, partitionMaxBytes);
        }

        private static FetchPartition read(ProtocolReader reader, short version) {
            int partition = reader.readInt32();
            int currentLeaderEpoch = version >= 9 ? reader.readInt32() : -1;
            long fetchOffset = reader.readInt64();
            int lastFetchedEpoch = version >= 12 ? reader.readInt32() : -1;
            long logStartOffset = version >= 5 ? reader.readInt64() : -1L;
            int partitionMaxBytes = reader.readInt32();
            reader.readTaggedFields();
            return new FetchPartition(partition, currentLeaderEpoch, fetchOffset, lastFetchedEpoch, logStartOffset, partitionMaxBytes);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeInt32(partition);
            if (version >= 9) {
                writer.writeInt32(currentLeaderEpoch);
            }
            writer.writeInt64(fetchOffset);
            if (version >= 12) {
                writer.writeInt32(lastFetchedEpoch);
            }
            if (version >= 5) {
                writer.writeInt64(logStartOffset);
            }
            writer.writeInt32(partitionMaxBytes);
            writer.writeTaggedFields();
        }
    }

    /** Partitions an incremental fetch session should stop fetching. */
    public record ForgottenTopic(String topic, List<Integer> partitions) {

        public ForgottenTopic {
            partitions = List.copyOf(partitions);
        }

        private static ForgottenTopic read(ProtocolReader reader) {
            ForgottenTopic topic = new ForgottenTopic(reader.readString(), reader.readInt32Array());
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(topic);
            writer.writeInt32Array(partitions);
            writer.writeTaggedFields();
        }
    }

    public FetchRequest {
        topics = List.copyOf(topics);
        forgottenTopicsData = List.copyOf(forgottenTopicsData);
        rackId = rackId == null ? "" : rackId;
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static FetchRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int replicaId = reader.readInt32();
        int maxWaitMs = reader.readInt32();
        int minBytes = reader.readInt32();
        int maxBytes = reader.readInt32();
        byte isolationLevel = reader.readInt8();
        int sessionId = version >= 7 ? reader.readInt32() : 0;
        int sessionEpoch = version >= 7 ? reader.readInt32() : -1;
        List<FetchTopic> topics = reader.readArray(r -> FetchTopic.read(r, version), 2);
        List<ForgottenTopic> forgotten = version >= 7 ? reader.readArray(ForgottenTopic::read, 2) : List.of();
        String rackId = version >= 11 ? reader.readString() : "";
        reader.readTaggedFields();
        return new FetchRequest(replicaId, maxWaitMs, minBytes, maxBytes, isolationLevel, sessionId, sessionEpoch,
            topics, forgotten, rackId);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(replicaId);
        writer.writeInt32(maxWaitMs);
        writer.writeInt32(minBytes);
        writer.writeInt32(maxBytes);
        writer.writeInt8(isolationLevel);
        if (version >= 7) {
            writer.writeInt32(sessionId);
            writer.writeInt32(sessionEpoch);
        }
        writer.writeArray(topics, (w, t) -> t.write(w, version));
        if (version >= 7) {
            writer.writeArray(forgottenTopicsData, (w, t) -> t.write(w));
        }
        if (version >= 11) {
            writer.writeString(rackId);
        }
        writer.writeTaggedFields();
    }
}
