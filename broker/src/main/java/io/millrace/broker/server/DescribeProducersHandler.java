package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.MetadataCache;
import io.millrace.broker.log.ProducerStateEntry;
import io.millrace.broker.log.ProducerStateEntry.BatchMetadata;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DescribeProducersRequest;
import io.millrace.common.protocol.message.DescribeProducersResponse;
import io.millrace.common.protocol.message.DescribeProducersResponse.PartitionResponse;
import io.millrace.common.protocol.message.DescribeProducersResponse.ProducerState;
import java.util.ArrayList;
import java.util.List;

/**
 * The producers each partition this broker holds a replica of remembers, led or followed, as on
 * Kafka, where any replica answers (`kafka-transactions describe-producers` and `find-hanging`,
 * AdminClient's {@code describeProducers}): id, epoch, the last sequence number
 * and the last batch's timestamp, which is what an operator looks at when a producer is refused with
 * OUT_OF_ORDER_SEQUENCE_NUMBER or INVALID_PRODUCER_EPOCH, and for a transactional producer the
 * epoch of the coordinator that wrote its last marker here and where its open transaction began
 * (-1 for none), what holds a read-committed consumer back. A partition without a replica here is
 * NOT_LEADER_OR_FOLLOWER and an unknown one UNKNOWN_TOPIC_OR_PARTITION, as on Kafka.
 */
final class DescribeProducersHandler implements ApiHandler {

    private final MetadataCache metadata;
    private final LocalPartitions partitions;

    DescribeProducersHandler(MetadataCache metadata, LocalPartitions partitions) {
        this.metadata = metadata;
        this.partitions = partitions;
    }

    @Override
    public void handle(Request request) {
        DescribeProducersRequest body = request.body();
        ClusterSnapshot snapshot = metadata.snapshot();
        List<DescribeProducersResponse.TopicResponse> topics = new ArrayList<>(body.topics().size());
        for (DescribeProducersRequest.TopicRequest topic : body.topics()) {
            List<PartitionResponse> results = new ArrayList<>(topic.partitionIndexes().size());
            for (int partition : topic.partitionIndexes()) {
                results.add(describe(snapshot, topic.name(), partition));
            }
            topics.add(new DescribeProducersResponse.TopicResponse(topic.name(), results));
        }
        request.respond(new DescribeProducersResponse(0, topics));
    }

    private PartitionResponse describe(ClusterSnapshot snapshot, String topic, int partition) {
        try {
            List<ProducerState> producers = partitions.replicaLog(snapshot, topic, partition).producerState().entries()
                .stream().map(DescribeProducersHandler::state).toList();
            return new PartitionResponse(partition, Errors.NONE.code(), null, producers);
        } catch (RuntimeException e) {
            Errors error = ServerErrors.forException(e);
            return new PartitionResponse(partition, error.code(), ServerErrors.message(e), List.of());
        }
    }

    private static ProducerState state(ProducerStateEntry entry) {
        List<BatchMetadata> batches = entry.batches();
        long lastTimestamp = batches.isEmpty() ? -1L : batches.get(batches.size() - 1).timestamp();
        return new ProducerState(entry.producerId(), entry.epoch(), entry.lastSeq(), lastTimestamp, entry.coordinatorEpoch(),
            entry.currentTxnFirstOffset());
    }
}
