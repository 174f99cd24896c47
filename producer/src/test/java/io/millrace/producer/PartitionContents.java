package io.millrace.producer;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.BootstrapServers;
import io.millrace.common.client.Cluster;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Record;
import io.millrace.common.record.RecordBatch;
import io.millrace.common.record.RecordBatchIterator;
import io.millrace.common.record.RecordIterator;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Reads a partition back with plain Fetch requests over the shared network client, so the
 * producer's tests check what the broker stored without depending on the consumer.
 */
public final class PartitionContents {

    /** One stored record, key and value as UTF-8 strings (null stays null), and the base offset of its batch. */
    public record Stored(long offset, String key, String value, CompressionType compression, long batchOffset) {
    }

    /** A stored batch's header: where it starts, how many records it holds and which producer numbered them how. */
    public record Batch(long baseOffset, int recordCount, long producerId, short producerEpoch, int baseSequence) {
    }

    private PartitionContents() {
    }

    public static List<Stored> read(String bootstrapServers, String topic, int partition) throws Exception {
        List<Stored> stored = new ArrayList<>();
        readAll(bootstrapServers, topic, partition, (data, next) -> collect(data, next, stored));
        return stored;
    }

    /** The headers of the partition's batches, in offset order. */
    public static List<Batch> batches(String bootstrapServers, String topic, int partition) throws Exception {
        List<Batch> batches = new ArrayList<>();
        readAll(bootstrapServers, topic, partition, (data, next) -> {
            long offset = next;
            for (RecordBatch batch : RecordBatchIterator.batches(bytesOf(data))) {
                if (batch.baseOffset() >= next) {
                    batches.add(new Batch(batch.baseOffset(), batch.recordCount(), batch.producerId(), batch.producerEpoch(),
                        batch.baseSequence()));
                }
                offset = batch.nextOffset();
            }
            return offset;
        });
        return batches;
    }

    /** Takes what one fetch from {@code next} returned; returns the offset to fetch from next. */
    private interface Collector {
        long collect(FetchResponse.PartitionData data, long next);
    }

    private static void readAll(String bootstrapServers, String topic, int partition, Collector collector) throws Exception {
        try (NetworkClient client = new NetworkClient(NetworkClient.Options.defaults("partition-reader"));
             Metadata metadata = new Metadata(client, BootstrapServers.parse(bootstrapServers), 50, 300_000)) {
            Cluster cluster = metadata.awaitTopic(topic, 10_000);
            Node leader = cluster.leaderFor(new TopicPartition(topic, partition));
            long next = 0;
            while (true) {
                FetchResponse.PartitionData data = fetch(client, leader, topic, partition, next);
                if (data.error() != Errors.NONE) {
                    throw new AssertionError("Fetch of " + topic + "-" + partition + " failed: " + data.error());
                }
                next = collector.collect(data, next);
                if (next >= data.highWatermark()) {
                    return;
                }
            }
        }
    }

    private static ByteBuffer bytesOf(FetchResponse.PartitionData data) {
        ByteBuffer bytes = ByteBuffer.allocate(data.records().sizeInBytes());
        data.records().copyTo(bytes);
        return bytes.flip();
    }

    private static FetchResponse.PartitionData fetch(NetworkClient client, Node leader, String topic, int partition,
                                                     long offset) throws Exception {
        FetchRequest request = new FetchRequest(-1, 0, 0, 16 * 1024 * 1024, (byte) 0, 0, -1,
            List.of(new FetchRequest.FetchTopic(topic, List.of(FetchRequest.FetchPartition.of(partition, offset, 8 * 1024 * 1024)))),
            List.of(), "");
        FetchResponse response = client.<FetchResponse>send(leader, request).get(10, TimeUnit.SECONDS);
        return response.responses().get(0).partitions().get(0);
    }

    private static long collect(FetchResponse.PartitionData data, long next, List<Stored> stored) {
        long offset = next;
        for (RecordBatch batch : RecordBatchIterator.batches(bytesOf(data))) {
            try (RecordIterator records = batch.records()) {
                while (records.hasNext()) {
                    Record record = records.next();
                    if (record.offset() >= next) {
                        stored.add(new Stored(record.offset(), utf8(record.key()), utf8(record.value()), batch.compressionType(),
                            batch.baseOffset()));
                    }
                }
            }
            offset = batch.nextOffset();
        }
        return offset;
    }

    private static String utf8(ByteBuffer bytes) {
        return bytes == null ? null : StandardCharsets.UTF_8.decode(bytes.duplicate()).toString();
    }
}
