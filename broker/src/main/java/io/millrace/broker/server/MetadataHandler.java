package io.millrace.broker.server;

import io.millrace.broker.cluster.BrokerInfo;
import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.PartitionState;
import io.millrace.broker.cluster.TopicMetadata;
import io.millrace.broker.cluster.TopicNames;
import io.millrace.broker.cluster.ZkCluster;
import io.millrace.broker.txn.TransactionStateLog;
import io.millrace.common.errors.TopicExistsException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.MetadataRequest;
import io.millrace.common.protocol.message.MetadataResponse;
import io.millrace.common.protocol.types.Uuids;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brokers, controller, topics, partitions and leaders from one snapshot of the metadata cache. A
 * topic that does not exist is created when both the request and {@code auto.create.topics.enable}
 * allow it, with {@code num.partitions} partitions, and answered LEADER_NOT_AVAILABLE meanwhile
 * (Kafka's answer under ZooKeeper), so the client asks again; otherwise UNKNOWN_TOPIC_OR_PARTITION.
 * Each partition is answered from its state: leader and leader epoch, the replicas, the in-sync
 * replicas and the replicas whose broker is not live (offline_replicas). A partition whose leader
 * is not live, or that has none, is answered LEADER_NOT_AVAILABLE with leader -1.
 */
final class MetadataHandler implements ApiHandler {

    static final String CLUSTER_ID = "millrace";
    private static final Logger LOG = LoggerFactory.getLogger(MetadataHandler.class);
    /** Metadata responses may carry a null topic name from this version on. */
    private static final short FIRST_VERSION_WITH_NULLABLE_NAMES = 12;

    private final ZkCluster cluster;
    private final BrokerConfig config;

    MetadataHandler(ZkCluster cluster, BrokerConfig config) {
        this.cluster = cluster;
        this.config = config;
    }

    @Override
    public void handle(Request request) {
        MetadataRequest body = request.body();
        ClusterSnapshot snapshot = cluster.metadata().snapshot();
        List<MetadataResponse.Topic> topics = new ArrayList<>();
        if (namesATopicOnlyById(body) && request.version() < FIRST_VERSION_WITH_NULLABLE_NAMES) {
            // Before v12 an answer cannot carry a null topic name; Kafka refuses such a request as
            // invalid, which closes the connection.
            LOG.debug("Closing {}: Metadata v{} names a topic only by id", request, request.version());
            request.close();
            return;
        }
        if (body.topics() == null) {
            snapshot.topics().forEach(name -> topics.add(describe(snapshot, snapshot.topic(name).orElseThrow())));
        } else {
            for (MetadataRequest.Topic asked : body.topics()) {
                topics.add(answer(snapshot, asked, body.allowAutoTopicCreation()));
            }
        }
        List<MetadataResponse.Broker> brokers = new ArrayList<>();
        for (BrokerInfo broker : snapshot.liveBrokers()) {
            brokers.add(new MetadataResponse.Broker(broker.id(), broker.host(), broker.port(), broker.rack()));
        }
        request.respond(new MetadataResponse(0, brokers, CLUSTER_ID, snapshot.controllerId(), topics,
            MetadataResponse.UNKNOWN_AUTHORIZED_OPERATIONS, Errors.NONE.code()));
    }

    private static boolean namesATopicOnlyById(MetadataRequest body) {
        return body.topics() != null && body.topics().stream().anyMatch(t -> t.byId() || t.name() == null);
    }

    private MetadataResponse.Topic answer(ClusterSnapshot snapshot, MetadataRequest.Topic asked, boolean allowAutoCreate) {
        if (asked.byId() || asked.name() == null) {
            return snapshot.topicById(asked.topicId()).map(t -> describe(snapshot, t))
                .orElseGet(() -> new MetadataResponse.Topic(Errors.UNKNOWN_TOPIC_ID.code(), null, asked.topicId(), false,
                    List.of(), MetadataResponse.UNKNOWN_AUTHORIZED_OPERATIONS));
        }
        return snapshot.topic(asked.name()).map(t -> describe(snapshot, t))
            .orElseGet(() -> missing(asked.name(), allowAutoCreate && config.autoCreateTopicsEnable()));
    }

    private MetadataResponse.Topic missing(String name, boolean create) {
        Errors error = Errors.UNKNOWN_TOPIC_OR_PARTITION;
        if (!TopicNames.isValid(name)) {
            error = Errors.INVALID_TOPIC_EXCEPTION;
        } else if (create && !isInternal(name)) {
            // the internal topics are made by their coordinators, with their own settings
            autoCreate(name);
            error = Errors.LEADER_NOT_AVAILABLE;
        }
        return new MetadataResponse.Topic(error.code(), name, Uuids.ZERO, false, List.of(),
            MetadataResponse.UNKNOWN_AUTHORIZED_OPERATIONS);
    }

    private void autoCreate(String name) {
        cluster.createTopic(name, config.numPartitions(), config.defaultReplicationFactor(), Map.of(),
            config.cluster().topicAdminTimeout()).whenComplete((ok, failure) -> {
            if (failure == null) {
                LOG.info("Created topic {} with {} partitions on a client's metadata request", name, config.numPartitions());
            } else if (!(unwrap(failure) instanceof TopicExistsException)) {
                LOG.warn("Could not create topic {} automatically: {}", name, unwrap(failure).toString());
            }
        });
    }

    private static Throwable unwrap(Throwable failure) {
        return failure.getCause() != null && failure instanceof java.util.concurrent.CompletionException
            ? failure.getCause() : failure;
    }

    /** Kafka's internal topics: the group coordinator's offsets and the transaction coordinator's state. */
    static boolean isInternal(String topic) {
        return topic.equals(io.millrace.broker.group.OffsetsTopic.NAME) || topic.equals(TransactionStateLog.NAME);
    }

    private static MetadataResponse.Topic describe(ClusterSnapshot snapshot, TopicMetadata topic) {
        List<MetadataResponse.Partition> partitions = new ArrayList<>(topic.partitionCount());
        for (int partition : topic.replicas().keySet()) {
            partitions.add(describe(snapshot, snapshot.partitionState(topic.name(), partition).orElseThrow(), partition));
        }
        // flagged internal as Kafka flags them, so that clients leave them out of pattern subscriptions
        boolean internal = isInternal(topic.name());
        return new MetadataResponse.Topic(Errors.NONE.code(), topic.name(), topic.topicId(), internal, partitions,
            MetadataResponse.UNKNOWN_AUTHORIZED_OPERATIONS);
    }

    private static MetadataResponse.Partition describe(ClusterSnapshot snapshot, PartitionState state, int partition) {
        boolean led = state.leader() != ClusterSnapshot.NO_LEADER && snapshot.isLive(state.leader());
        Errors error = led ? Errors.NONE : Errors.LEADER_NOT_AVAILABLE;
        List<Integer> offline = state.replicas().stream().filter(r -> !snapshot.isLive(r)).toList();
        return new MetadataResponse.Partition(error.code(), partition, led ? state.leader() : ClusterSnapshot.NO_LEADER,
            state.leaderEpoch(), state.replicas(), state.isr(), offline);
    }
}
