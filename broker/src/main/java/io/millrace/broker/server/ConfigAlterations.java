package io.millrace.broker.server;

import io.millrace.broker.cluster.ClusterSnapshot;
import io.millrace.broker.cluster.TopicNames;
import io.millrace.broker.cluster.ZkCluster;
import io.millrace.broker.log.LogConfig;
import io.millrace.common.config.ConfigDef;
import io.millrace.common.config.ConfigException;
import io.millrace.common.errors.UnknownTopicOrPartitionException;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.DescribeConfigsRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * What IncrementalAlterConfigs and AlterConfigs share: carrying out one resource's change.
 *
 * <p>A topic's overrides live in ZooKeeper ({@link ZkCluster#alterTopicConfig}), so any broker
 * changes any topic's, and every broker hosting the topic applies them to its logs live
 * ({@link TopicConfigSync}). The new overrides are checked against the log's topic settings before
 * they are written: an unknown name or a bad value fails with INVALID_CONFIG and changes nothing.
 * With validate_only the change is derived and checked against this broker's view and not written.
 *
 * <p>Broker settings are read once, at startup: Millrace has no dynamic broker settings, so a change
 * to a broker resource is refused with INVALID_REQUEST, as Kafka refuses a setting it cannot change
 * dynamically (an unknown name gets INVALID_CONFIG). A broker resource names this broker's id, or is
 * empty for the cluster-wide defaults. Other resource types get INVALID_REQUEST.
 */
final class ConfigAlterations {

    /**
     * Kafka's replication throttles (KIP-73), broker rates and topic replica lists, which
     * `kafka-reassign-partitions` clears once a move is verified. Millrace does not throttle
     * replication, so none is ever set: deleting one succeeds and changes nothing, as on a Kafka broker
     * where it is unset. Setting one is refused as any unknown setting is.
     */
    static final Set<String> REPLICATION_THROTTLES = Set.of("leader.replication.throttled.rate",
        "follower.replication.throttled.rate", "replica.alter.log.dirs.io.max.bytes.per.second",
        "leader.replication.throttled.replicas", "follower.replication.throttled.replicas");

    private final ZkCluster cluster;
    private final BrokerConfig config;

    ConfigAlterations(ZkCluster cluster, BrokerConfig config) {
        this.cluster = cluster;
        this.config = config;
    }

    /**
     * Changes a topic's overrides to {@code change} applied to the current ones; {@code change}
     * throws {@link ConfigException} or {@link ApiException} to refuse.
     */
    CompletableFuture<Void> alterTopic(String topic, UnaryOperator<Map<String, String>> change, boolean validateOnly) {
        UnaryOperator<Map<String, String>> checked = current -> validated(change.apply(current));
        try {
            TopicNames.validate(topic);
            ClusterSnapshot snapshot = cluster.metadata().snapshot();
            if (!snapshot.hasTopic(topic)) {
                throw new UnknownTopicOrPartitionException("Topic " + topic + " does not exist");
            }
            if (validateOnly) {
                checked.apply(snapshot.topicConfig(topic));
                return CompletableFuture.completedFuture(null);
            }
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return cluster.alterTopicConfig(topic, checked).thenApply(written -> null);
    }

    /** Refuses any change to a broker's settings, after checking the broker and the setting names. */
    CompletableFuture<Void> alterBroker(String name, Collection<String> keys) {
        try {
            checkBrokerName(name);
            List<String> unknown = keys.stream().filter(key -> brokerKey(key) == null).sorted().toList();
            if (!unknown.isEmpty()) {
                throw new ConfigException("Unknown broker configuration " + String.join(", ", unknown));
            }
            if (!keys.isEmpty()) {
                throw new ApiException(Errors.INVALID_REQUEST, "Cannot update these configs dynamically: "
                    + new TreeSet<>(keys) + ". Millrace reads broker settings at startup only: change them in the "
                    + "broker's properties and restart it");
            }
            return CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** A resource type neither API alters. */
    static CompletableFuture<Void> unsupported(byte type) {
        return CompletableFuture.failedFuture(new ApiException(Errors.INVALID_REQUEST, "Millrace alters topic (resource "
            + "type " + DescribeConfigsRequest.TOPIC + ") and broker (" + DescribeConfigsRequest.BROKER
            + ") configurations only, not resource type " + type));
    }

    /** Which resource a request names: its type and name. */
    record ResourceId(byte type, String name) {
    }

    /**
     * Alters every resource of a request with {@code alter}, except those named more than once
     * (as Kafka, neither is carried out: INVALID_REQUEST), and completes with each one's result,
     * in the request's order, once all have one.
     */
    static <R, T> CompletableFuture<List<T>> alterEach(List<R> resources, Function<R, ResourceId> id,
                                                        Function<R, CompletableFuture<Void>> alter,
                                                        BiFunction<R, Throwable, T> result) {
        Map<ResourceId, Integer> named = new HashMap<>();
        resources.forEach(r -> named.merge(id.apply(r), 1, Integer::sum));
        List<CompletableFuture<T>> results = new ArrayList<>();
        for (R resource : resources) {
            ResourceId rid = id.apply(resource);
            CompletableFuture<Void> done = named.get(rid) > 1 ? duplicate(rid.type(), rid.name()) : alter.apply(resource);
            results.add(done.handle((ok, failure) -> result.apply(resource, failure)));
        }
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
            .handle((ok, failure) -> results.stream().map(CompletableFuture::join).toList());
    }

    /** A resource named twice in one request: as Kafka, neither is carried out. */
    static CompletableFuture<Void> duplicate(byte type, String name) {
        return CompletableFuture.failedFuture(new ApiException(Errors.INVALID_REQUEST, "Resource " + name + " of type "
            + type + " is named more than once in the request"));
    }

    /** The topic setting's definition, or INVALID_CONFIG naming it. */
    static ConfigDef.ConfigKey topicKey(String name) {
        ConfigDef.ConfigKey key = LogConfig.TOPIC_CONFIG.key(name);
        if (key == null) {
            throw new ConfigException("Unknown topic configuration " + name);
        }
        return key;
    }

    private Map<String, String> validated(Map<String, String> overrides) {
        config.log().withOverrides(overrides);
        return overrides;
    }

    private void checkBrokerName(String name) {
        if (!name.isEmpty() && !name.equals(String.valueOf(config.brokerId()))) {
            throw new ApiException(Errors.INVALID_REQUEST, "Unexpected broker id, expected " + config.brokerId()
                + " or the empty string, but received " + name);
        }
    }

    private static ConfigDef.ConfigKey brokerKey(String name) {
        for (ConfigDef def : BrokerConfig.ALL) {
            ConfigDef.ConfigKey key = def.key(name);
            if (key != null) {
                return key;
            }
        }
        return null;
    }
}
