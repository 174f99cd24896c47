package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.Frames;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import io.millrace.common.protocol.types.RecordsPayload;
import io.millrace.common.protocol.types.SegmentWriter.SegmentSink;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * Fetch response (api key 1).
 *
 * <pre>
 * FetchResponse => throttle_time_ms error_code session_id [responses] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   error_code       => INT16    (v7+)
 *   session_id       => INT32    (v7+)
 *   responses => topic [partitions] TAG_BUFFER
 *     topic => STRING
 *     partitions => partition_index error_code high_watermark last_stable_offset log_start_offset
 *                   [aborted_transactions] preferred_read_replica records TAG_BUFFER
 *       partition_index        => INT32
 *       error_code             => INT16
 *       high_watermark         => INT64
 *       last_stable_offset     => INT64
 *       log_start_offset       => INT64   (v5+)
 *       aborted_transactions   => producer_id first_offset TAG_BUFFER   (nullable array)
 *         producer_id => INT64   first_offset => INT64
 *       preferred_read_replica => INT32   (v11+)
 *       records                => RECORDS  (nullable bytes)
 * </pre>
 *
 * Version 4 (the oldest supported) adds the last stable offset and aborted transactions. Version 5
 * adds the log start offset. Version 6 may carry KAFKA_STORAGE_ERROR. Version 7 adds the top-level
 * error code and session id. Versions 8 to 10 have the same layout. Version 11 adds the preferred
 * read replica. Version 12 is flexible; Kafka may add the partition tagged fields DivergingEpoch
 * (0), CurrentLeader (1) and SnapshotId (2), which Millrace skips and never writes.
 *
 * <p><b>Zero-copy design.</b> A partition's records are a {@link RecordsPayload}: in memory after
 * {@link #parse} (a slice of the input, not copied), or, on the broker, a region of a segment file
 * that implements the interface. {@link #writeTo(ByteBuffer, short)} copies everything into one
 * buffer. {@link #writeFrame(int, short, SegmentSink)} instead hands the frame to the sink as
 * segments in wire order: one run of protocol bytes (frame size, response header and every field
 * up to and including the first records length prefix), the first records payload as it is, the
 * next run of protocol bytes (the partition's tagged fields, the next partition's fields, up to
 * the next length prefix), and so on, ending with the trailing protocol bytes. The protocol runs are
 * slices of one buffer of exactly their total size; payloads are never read. The Netty broker
 * writes each run as a {@code ByteBuf} and each payload as a {@code DefaultFileRegion}
 * (or copies it when TLS forbids zero copy), for example:
 * <pre>
 *   response.writeFrame(correlationId, version, new SegmentSink() {
 *       public void protocolBytes(ByteBuffer b) { ctx.write(Unpooled.wrappedBuffer(b)); }
 *       public void records(RecordsPayload r)   { ctx.write(((FileRegionPayload) r).toFileRegion()); }
 *   });
 *   ctx.flush();
 * </pre>
 */
public record FetchResponse(int throttleTimeMs, short errorCode, int sessionId, List<FetchableTopicResponse> responses)
    implements ApiMessage {

    private static final ApiKey API = ApiKey.FETCH;

    public record FetchableTopicResponse(String topic, List<PartitionData> partitions) {

        public FetchableTopicResponse {
            partitions = List.copyOf(partitions);
        }

        private static FetchableTopicResponse read(ProtocolReader reader, short version) {
            FetchableTopicResponse topic = new FetchableTopicResponse(reader.readString(),
                reader.readArray(r -> PartitionData.read(r, version), 30));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeString(topic);
            writer.writeArray(partitions, (w, p) -> p.write(w, version));
            writer.writeTaggedFields();
        }
    }

    /**
     * One partition's answer. {@code abortedTransactions} is null when the fetch is read-uncommitted
     * (as Kafka sends it); {@code records} is null only when a peer sent a null field.
     */
    public record PartitionData(int partitionIndex, short errorCode, long highWatermark, long lastStableOffset,
                                long logStartOffset, List<AbortedTransaction> abortedTransactions,
                                int preferredReadReplica, RecordsPayload records) {

        public PartitionData {
            abortedTransactions = abortedTransactions == null ? null : List.copyOf(abortedTransactions);
        }

        /** A read-uncommitted answer: no aborted transactions, no preferred replica. */
        public static PartitionData of(int partitionIndex, Errors error, long highWatermark, long lastStableOffset,
                                       long logStartOffset, RecordsPayload records) {
            return new PartitionData(partitionIndex, error.code(), highWatermark, lastStableOffset, logStartOffset,
                null, -1, records);
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static PartitionData read(ProtocolReader reader, short version) {
            int partitionIndex = reader.readInt32();
            short errorCode = reader.readInt16();
            long highWatermark = reader.readInt64();
            long lastStableOffset = reader.readInt64();
            long logStartOffset = version >= 5 ? reader.readInt64() : -1L;
            List<AbortedTransaction> aborted = reader.readNullableArray(AbortedTransaction::read, 16);
            int preferredReadReplica = version >= 11 ? reader.readInt32() : -1;
            ByteBuffer records = reader.readRecords();
            reader.readTaggedFields();
            return new PartitionData(partitionIndex, errorCode, highWatermark, lastStableOffset, logStartOffset, aborted,
                preferredReadReplica, records == null ? null : RecordsPayload.of(records));
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeInt32(partitionIndex);
            writer.writeInt16(errorCode);
            writer.writeInt64(highWatermark);
            writer.writeInt64(lastStableOffset);
            if (version >= 5) {
                writer.writeInt64(logStartOffset);
            }
            writer.writeNullableArray(abortedTransactions, (w, a) -> a.write(w));
            if (version >= 11) {
                writer.writeInt32(preferredReadReplica);
            }
            writer.writeRecords(records);
            writer.writeTaggedFields();
        }
    }

    public record AbortedTransaction(long producerId, long firstOffset) {

        private static AbortedTransaction read(ProtocolReader reader) {
            AbortedTransaction aborted = new AbortedTransaction(reader.readInt64(), reader.readInt64());
            reader.readTaggedFields();
            return aborted;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt64(producerId);
            writer.writeInt64(firstOffset);
            writer.writeTaggedFields();
        }
    }

    public FetchResponse {
        responses = List.copyOf(responses);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static FetchResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        short errorCode = version >= 7 ? reader.readInt16() : 0;
        int sessionId = version >= 7 ? reader.readInt32() : 0;
        List<FetchableTopicResponse> responses = reader.readArray(r -> FetchableTopicResponse.read(r, version), 2);
        reader.readTaggedFields();
        return new FetchResponse(throttleTimeMs, errorCode, sessionId, responses);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        if (version >= 7) {
            writer.writeInt16(errorCode);
            writer.writeInt32(sessionId);
        }
        writer.writeArray(responses, (w, t) -> t.write(w, version));
        writer.writeTaggedFields();
    }

    /**
     * Writes the whole response frame (size, header, body) as segments, handing records payloads
     * to the sink uncopied; see the class comment. Same as
     * {@link Frames#writeResponse(int, ApiMessage, short, SegmentSink)}.
     */
    public void writeFrame(int correlationId, short version, SegmentSink sink) {
        Frames.writeResponse(correlationId, this, version, sink);
    }
}
