package io.millrace.consumer.internals;

import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.message.FetchRequest;
import io.millrace.common.protocol.message.FetchRequest.FetchPartition;
import io.millrace.common.protocol.message.FetchRequest.FetchTopic;
import io.millrace.common.protocol.message.FetchResponse;
import io.millrace.common.protocol.message.FetchResponse.FetchableTopicResponse;
import io.millrace.common.protocol.message.FetchResponse.PartitionData;
import io.millrace.common.protocol.types.BufferPayload;
import io.millrace.consumer.ConsumerConfig;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Building consumer Fetch requests (no fetch sessions: session id 0, epoch -1, every partition in
 * every request) and reading their answers.
 */
public final class FetchRequests {

    private static final int CONSUMER_REPLICA_ID = -1;
    private static final int NO_SESSION = 0;
    private static final int FINAL_EPOCH = -1;
    private static final byte READ_UNCOMMITTED = 0;
    private static final byte READ_COMMITTED = 1;
    private static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

    private FetchRequests() {
    }

    public static FetchRequest single(ConsumerConfig config, TopicPartition tp, long offset) {
        return of(config, Map.of(tp, offset));
    }

    /** A fetch of every partition in {@code offsets} from its offset, with the config's byte budgets. */
    public static FetchRequest of(ConsumerConfig config, Map<TopicPartition, Long> offsets) {
        int partitionBytes = config.getInt(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG);
        Map<String, List<FetchPartition>> byTopic = new LinkedHashMap<>();
        offsets.forEach((tp, offset) -> byTopic.computeIfAbsent(tp.topic(), t -> new ArrayList<>())
            .add(FetchPartition.of(tp.partition(), offset, partitionBytes)));
        List<FetchTopic> topics = new ArrayList<>();
        byTopic.forEach((topic, partitions) -> topics.add(new FetchTopic(topic, partitions)));
        return new FetchRequest(CONSUMER_REPLICA_ID, config.getInt(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG),
            config.getInt(ConsumerConfig.FETCH_MIN_BYTES_CONFIG), config.getInt(ConsumerConfig.FETCH_MAX_BYTES_CONFIG),
            config.readCommitted() ? READ_COMMITTED : READ_UNCOMMITTED, NO_SESSION, FINAL_EPOCH, topics, List.of(), "");
    }

    /** The answer for one partition, or null when the response leaves it out. */
    public static PartitionData partitionData(FetchResponse response, TopicPartition tp) {
        for (FetchableTopicResponse topic : response.responses()) {
            if (topic.topic().equals(tp.topic())) {
                for (PartitionData data : topic.partitions()) {
                    if (data.partitionIndex() == tp.partition()) {
                        return data;
                    }
                }
            }
        }
        return null;
    }

    /**
     * A partition's records as a buffer (the parsed response's slice, not copied); empty when null.
     * In a read-committed answer naming aborted transactions, their batches are emptied in a copy
     * ({@link AbortedBatches}), so that every reader skips their records and still moves past them.
     */
    public static ByteBuffer recordsOf(PartitionData data) {
        ByteBuffer records = bufferOf(data);
        List<FetchResponse.AbortedTransaction> aborted = data.abortedTransactions();
        return aborted == null || aborted.isEmpty() ? records : AbortedBatches.emptied(records, aborted);
    }

    private static ByteBuffer bufferOf(PartitionData data) {
        if (data.records() == null) {
            return EMPTY;
        }
        if (data.records() instanceof BufferPayload payload) {
            return payload.buffer().duplicate();
        }
        ByteBuffer copy = ByteBuffer.allocate(data.records().sizeInBytes());
        data.records().copyTo(copy);
        return copy.flip();
    }
}
