package io.millrace.broker.server;

import io.millrace.broker.cluster.InvalidReplicationFactorException;
import io.millrace.broker.cluster.TopicNames;
import io.millrace.broker.cluster.TopicMetadata;
import io.millrace.broker.cluster.ZkCluster;
import io.millrace.common.config.ConfigException;
import io.millrace.common.errors.InvalidPartitionsException;
import io.millrace.common.errors.TopicExistsException;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.CreateTopicsRequest;
import io.millrace.common.protocol.message.CreateTopicsRequest.CreatableTopic;
import io.millrace.common.protocol.message.CreateTopicsRequest.TopicConfig;
import io.millrace.common.protocol.message.CreateTopicsResponse;
import io.millrace.common.protocol.message.CreateTopicsResponse.CreatableTopicResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Creates topics through the controller ({@link ZkCluster#createTopic}), after checking here what
 * the controller cannot: the configs against the log's topic settings (INVALID_CONFIG) and the
 * shape of a manual assignment (the replicas of each partition, as `kafka-topics --replica-assignment`
 * gives them; INVALID_REPLICA_ASSIGNMENT). -1 partitions means
 * {@code num.partitions}, replication factor -1 {@code default.replication.factor}; the controller
 * refuses more replicas than live brokers with INVALID_REPLICATION_FACTOR. With validate_only
 * nothing is created. A topic named twice in one
 * request fails with INVALID_REQUEST. The answer is sent, from whichever thread finishes last,
 * once every topic is created or has failed (REQUEST_TIMED_OUT after the request's timeout).
 */
final class CreateTopicsHandler implements ApiHandler {

    private final ZkCluster cluster;
    private final BrokerConfig config;

    CreateTopicsHandler(ZkCluster cluster, BrokerConfig config) {
        this.cluster = cluster;
        this.config = config;
    }

    @Override
    public void handle(Request request) {
        CreateTopicsRequest body = request.body();
        Map<String, Long> counts = body.topics().stream()
            .collect(Collectors.groupingBy(CreatableTopic::name, Collectors.counting()));
        List<CompletableFuture<CreatableTopicResult>> results = new ArrayList<>();
        for (CreatableTopic topic : body.topics()) {
            CompletableFuture<Void> created = counts.get(topic.name()) > 1
                ? CompletableFuture.failedFuture(new ApiException(Errors.INVALID_REQUEST, "Topic " + topic.name()
                    + " is named more than once in the request"))
                : create(topic, body.timeoutMs(), body.validateOnly());
            results.add(created.handle((ok, failure) -> result(topic, failure)));
        }
        CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).whenComplete((ok, failure) ->
            request.respond(new CreateTopicsResponse(0, results.stream().map(CompletableFuture::join).toList())));
    }

    private CompletableFuture<Void> create(CreatableTopic topic, int timeoutMs, boolean validateOnly) {
        int partitions;
        int replicationFactor;
        Map<String, String> configs;
        List<List<Integer>> assignment;
        try {
            assignment = assignment(topic);
            partitions = assignment.isEmpty() ? validate(topic) : assignment.size();
            replicationFactor = assignment.isEmpty() ? replicationFactor(topic) : assignment.get(0).size();
            configs = configs(topic);
            if (validateOnly && cluster.metadata().snapshot().hasTopic(topic.name())) {
                throw new TopicExistsException("Topic " + topic.name() + " already exists");
            }
            if (validateOnly) {
                cluster.checkReplicationFactor(replicationFactor);
            }
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (validateOnly) {
            return CompletableFuture.completedFuture(null);
        }
        try {
            Duration timeout = timeoutMs > 0 ? Duration.ofMillis(timeoutMs) : config.cluster().topicAdminTimeout();
            return cluster.createTopic(topic.name(), partitions, replicationFactor, configs, assignment, timeout);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * The replicas the request chose for each partition, in partition order, or none. As on Kafka,
     * they come instead of a partition count and replication factor (INVALID_REQUEST with either),
     * and name the partitions 0 to n - 1 (INVALID_REPLICA_ASSIGNMENT otherwise); the brokers' count,
     * distinctness and liveness are checked with the creation.
     */
    private static List<List<Integer>> assignment(CreatableTopic topic) {
        TopicNames.validate(topic.name());
        if (topic.assignments().isEmpty()) {
            return List.of();
        }
        if (topic.numPartitions() != -1 || topic.replicationFactor() != -1) {
            throw new ApiException(Errors.INVALID_REQUEST, "Both numPartitions or replicationFactor and replicasAssignments "
                + "were set. Both cannot be used at the same time.");
        }
        SortedMap<Integer, List<Integer>> byPartition = new TreeMap<>();
        for (CreateTopicsRequest.ReplicaAssignment chosen : topic.assignments()) {
            if (byPartition.put(chosen.partitionIndex(), chosen.brokerIds()) != null) {
                throw new ApiException(Errors.INVALID_REPLICA_ASSIGNMENT, "Partition " + chosen.partitionIndex()
                    + " is assigned more than once");
            }
            if (chosen.brokerIds().isEmpty()) {
                throw new ApiException(Errors.INVALID_REPLICA_ASSIGNMENT, "Partition " + chosen.partitionIndex()
                    + " is assigned no broker");
            }
        }
        if (byPartition.firstKey() != 0 || byPartition.lastKey() != byPartition.size() - 1) {
            throw new ApiException(Errors.INVALID_REPLICA_ASSIGNMENT, "Partitions should be a consecutive 0-based integer "
                + "sequence, not " + byPartition.keySet());
        }
        return List.copyOf(byPartition.values());
    }

    /** The partition count to create, after checking everything but the configs. */
    private int validate(CreatableTopic topic) {
        int partitions = topic.numPartitions() == -1 ? config.numPartitions() : topic.numPartitions();
        if (partitions < 1) {
            throw new InvalidPartitionsException("Number of partitions must be at least 1, not " + topic.numPartitions());
        }
        return partitions;
    }

    private int replicationFactor(CreatableTopic topic) {
        int replicationFactor = topic.replicationFactor() == -1 ? config.defaultReplicationFactor() : topic.replicationFactor();
        if (replicationFactor < 1) {
            throw new InvalidReplicationFactorException("Replication factor must be larger than 0, or -1 for the default, not "
                + topic.replicationFactor());
        }
        return replicationFactor;
    }

    /** The configs as a map, checked against the log's topic settings. */
    private Map<String, String> configs(CreatableTopic topic) {
        Map<String, String> configs = new HashMap<>();
        for (TopicConfig c : topic.configs()) {
            if (c.value() == null) {
                throw new ConfigException("Topic config " + c.name() + " has no value");
            }
            if (configs.put(c.name(), c.value()) != null) {
                throw new ApiException(Errors.INVALID_REQUEST, "Topic config " + c.name() + " is given twice");
            }
        }
        config.log().withOverrides(configs);
        return configs;
    }

    private CreatableTopicResult result(CreatableTopic topic, Throwable failure) {
        if (failure == null && !topic.assignments().isEmpty()) {
            UUID id = cluster.metadata().snapshot().topic(topic.name()).map(TopicMetadata::topicId).orElse(null);
            return new CreatableTopicResult(topic.name(), id, Errors.NONE.code(), null, topic.assignments().size(),
                (short) topic.assignments().get(0).brokerIds().size(), List.of());
        }
        if (failure == null) {
            int partitions = topic.numPartitions() == -1 ? config.numPartitions() : topic.numPartitions();
            // a created topic is in this broker's cache by now (creation waits for it); a validated one is not
            UUID id = cluster.metadata().snapshot().topic(topic.name()).map(TopicMetadata::topicId).orElse(null);
            int replicas = topic.replicationFactor() == -1 ? config.defaultReplicationFactor() : topic.replicationFactor();
            return new CreatableTopicResult(topic.name(), id, Errors.NONE.code(), null, partitions, (short) replicas, List.of());
        }
        Errors error = ServerErrors.forException(failure);
        return new CreatableTopicResult(topic.name(), null, error.code(), ServerErrors.message(failure), -1, (short) -1,
            null);
    }
}
