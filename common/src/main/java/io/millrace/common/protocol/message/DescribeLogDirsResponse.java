package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DescribeLogDirs response (api key 35).
 *
 * <pre>
 * DescribeLogDirsResponse => throttle_time_ms error_code [results] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   error_code       => INT16   (v3+)
 *   results => error_code log_dir [topics] total_bytes usable_bytes is_cordoned TAG_BUFFER
 *     error_code   => INT16    KAFKA_STORAGE_ERROR for a directory that failed
 *     log_dir      => STRING   the directory's absolute path
 *     topics => name [partitions] TAG_BUFFER
 *       name => STRING
 *       partitions => partition_index partition_size offset_lag is_future_key TAG_BUFFER
 *         partition_index => INT32
 *         partition_size  => INT64   bytes in the partition's segments
 *         offset_lag      => INT64   how far the log end is behind the high watermark
 *         is_future_key   => BOOLEAN a copy being moved to this directory
 *     total_bytes  => INT64    (v4+) the size of the directory's volume, -1 when unknown
 *     usable_bytes => INT64    (v4+) the space left on it, -1 when unknown
 *     is_cordoned  => BOOLEAN  (v5+)
 * </pre>
 *
 * Version 1 (the oldest Kafka 4 still has) has the fields without a version. Version 2 is flexible,
 * version 3 adds the top-level error code, 4 the volume's sizes, 5 whether the directory is cordoned.
 */
public record DescribeLogDirsResponse(int throttleTimeMs, short errorCode, List<LogDirResult> results) implements ApiMessage {

    /** What a size is when it is not known (a failed directory, or a version before 4). */
    public static final long UNKNOWN_BYTES = -1L;

    private static final ApiKey API = ApiKey.DESCRIBE_LOG_DIRS;

    /** One log directory and the partitions in it. */
    public record LogDirResult(short errorCode, String logDir, List<LogDirTopic> topics, long totalBytes, long usableBytes,
                               boolean cordoned) {

        public LogDirResult {
            topics = List.copyOf(topics);
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static LogDirResult read(ProtocolReader reader, short version) {
            short errorCode = reader.readInt16();
            String logDir = reader.readString();
            List<LogDirTopic> topics = reader.readArray(LogDirTopic::read, 3);
            long total = version >= 4 ? reader.readInt64() : UNKNOWN_BYTES;
            long usable = version >= 4 ? reader.readInt64() : UNKNOWN_BYTES;
            boolean cordoned = version >= 5 && reader.readBool();
            reader.readTaggedFields();
            return new LogDirResult(errorCode, logDir, topics, total, usable, cordoned);
        }

        private void write(ProtocolWriter writer, short version) {
            writer.writeInt16(errorCode);
            writer.writeString(logDir);
            writer.writeArray(topics, (w, t) -> t.write(w));
            if (version >= 4) {
                writer.writeInt64(totalBytes);
                writer.writeInt64(usableBytes);
            }
            if (version >= 5) {
                writer.writeBool(cordoned);
            }
            writer.writeTaggedFields();
        }
    }

    /** One topic's partitions in a log directory. */
    public record LogDirTopic(String name, List<LogDirPartition> partitions) {

        public LogDirTopic {
            partitions = List.copyOf(partitions);
        }

        private static LogDirTopic read(ProtocolReader reader) {
            LogDirTopic topic = new LogDirTopic(reader.readString(), reader.readArray(LogDirPartition::read, 21));
            reader.readTaggedFields();
            return topic;
        }

        private void write(ProtocolWriter writer) {
            writer.writeString(name);
            writer.writeArray(partitions, (w, p) -> p.write(w));
            writer.writeTaggedFields();
        }
    }

    /** One partition's log in a log directory. */
    public record LogDirPartition(int partitionIndex, long partitionSize, long offsetLag, boolean futureKey) {

        private static LogDirPartition read(ProtocolReader reader) {
            LogDirPartition partition = new LogDirPartition(reader.readInt32(), reader.readInt64(), reader.readInt64(),
                reader.readBool());
            reader.readTaggedFields();
            return partition;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt32(partitionIndex);
            writer.writeInt64(partitionSize);
            writer.writeInt64(offsetLag);
            writer.writeBool(futureKey);
            writer.writeTaggedFields();
        }
    }

    public DescribeLogDirsResponse {
        results = List.copyOf(results);
    }

    public Errors error() {
        return Errors.forCode(errorCode);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DescribeLogDirsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        int throttleTimeMs = reader.readInt32();
        short errorCode = version >= 3 ? reader.readInt16() : Errors.NONE.code();
        List<LogDirResult> results = reader.readArray(r -> LogDirResult.read(r, version), 5);
        reader.readTaggedFields();
        return new DescribeLogDirsResponse(throttleTimeMs, errorCode, results);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        if (version >= 3) {
            writer.writeInt16(errorCode);
        }
        writer.writeArray(results, (w, r) -> r.write(w, version));
        writer.writeTaggedFields();
    }
}
