package io.millrace.broker.cluster;

import io.millrace.common.config.ConfigException;
import io.millrace.common.errors.InvalidPartitionsException;
import io.millrace.common.errors.MillraceException;
import io.millrace.common.errors.TopicExistsException;
import io.millrace.common.errors.UnknownTopicOrPartitionException;
import io.millrace.common.protocol.ApiException;
import io.millrace.common.protocol.Errors;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongFunction;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The requesting side of topic administration (creations, deletions, partition increases), on every broker: checks what it can locally,
 * writes an ephemeral request znode for the controller, follows that znode to learn the outcome
 * (see {@link AdminRequestWatch}) and completes once this broker's metadata cache shows the
 * result. Creating a request znode that already exists is how two concurrent creations of one
 * topic are told apart: exactly one of them gets to ask.
 *
 * <p>Thread-safe. ZooKeeper calls and deadlines run on one admin thread, never on the caller's.
 */
final class TopicAdmin implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(TopicAdmin.class);

    /**
     * The most partitions one topic may have: its assignment znode stays far below ZooKeeper's
     * 1 MB limit (about 12 bytes of JSON per partition).
     */
    static final int MAX_PARTITIONS = 10_000;

    private final CuratorFramework client;
    private final MetadataCache metadata;
    private final ScheduledExecutorService thread;
    /** Every result not yet complete, so that closing can fail them all. */
    private final Set<CompletableFuture<Void>> inFlight = ConcurrentHashMap.newKeySet();

    TopicAdmin(CuratorFramework client, MetadataCache metadata, String name) {
        this.client = client;
        this.metadata = metadata;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name + "-topic-admin");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * @param assignment the replicas of each partition, in partition order, when the requester chose
     *     them (then {@code partitions} and {@code replicationFactor} must match it); empty to let the controller place them
     */
    CompletableFuture<Void> createTopic(String topic, int partitions, int replicationFactor, Map<String, String> configs,
                                        List<List<Integer>> assignment, Duration timeout) {
        Map<String, String> config = configs == null ? Map.of() : configs;
        try {
            TopicNames.validate(topic);
            validatePartitions(partitions);
            ReplicaPlacement.validate(replicationFactor, Integer.MAX_VALUE); // against the live brokers: the controller
            if (!assignment.isEmpty()) {
                PartitionAssigner.validateAddition(0, replicationFactor, partitions, assignment,
                    metadata.snapshot().liveBrokers().stream().map(BrokerInfo::id).toList());
            }
            validateConfig(config);
        } catch (MillraceException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Void> result = track(new CompletableFuture<>());
        byte[] request = ClusterJson.createRequest(partitions, replicationFactor, config, assignment);
        run(result, () -> {
            if (client.checkExists().forPath(ClusterPaths.topic(topic)) != null) {
                throw new TopicExistsException("Topic '" + topic + "' already exists");
            }
            if (!place(AdminRequest.Kind.CREATE, topic, request, requestZxid -> createdAfter(topic, requestZxid), result, timeout)) {
                throw new TopicExistsException("Topic '" + topic + "' is already being created");
            }
        });
        return result;
    }

    CompletableFuture<Void> deleteTopic(String topic, Duration timeout) {
        try {
            TopicNames.validate(topic);
        } catch (MillraceException e) {
            return CompletableFuture.failedFuture(e);
        }
        CompletableFuture<Void> result = track(new CompletableFuture<>());
        run(result, () -> {
            Stat stat = client.checkExists().forPath(ClusterPaths.topic(topic));
            if (stat == null) {
                throw new UnknownTopicOrPartitionException("Topic '" + topic + "' does not exist");
            }
            if (!place(AdminRequest.Kind.DELETE, topic, ClusterJson.deleteRequest(), requestZxid -> gone(topic, stat.getCzxid()),
                result, timeout)) {
                // Someone else asked first; as Kafka does, wait for that deletion rather than fail.
                log.debug("A deletion of {} is already pending; waiting for it", topic);
                awaitVisible(result, gone(topic, stat.getCzxid()), timeout, "Topic '" + topic + "' was not deleted");
            }
        });
        return result;
    }

    /**
     * Asks the controller to grow {@code topic} to {@code count} partitions, placed on the brokers of
     * {@code assignment} (one per new partition) or, when it is empty, round-robin; completes once
     * this broker's view shows them. The request is checked against this broker's view first (and
     * by the controller again): with {@code validateOnly} that is all that happens.
     */
    CompletableFuture<Void> createPartitions(String topic, int count, List<List<Integer>> assignment, boolean validateOnly,
                                             Duration timeout) {
        try {
            TopicNames.validate(topic);
            ClusterSnapshot snapshot = metadata.snapshot();
            TopicMetadata current = snapshot.topic(topic)
                .orElseThrow(() -> new UnknownTopicOrPartitionException("Topic '" + topic + "' does not exist"));
            List<Integer> live = snapshot.liveBrokers().stream().map(BrokerInfo::id).toList();
            PartitionAssigner.validateAddition(current.partitionCount(), current.replicationFactor(), count, assignment, live);
        } catch (MillraceException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (validateOnly) {
            return CompletableFuture.completedFuture(null);
        }
        CompletableFuture<Void> result = track(new CompletableFuture<>());
        byte[] request = ClusterJson.createPartitionsRequest(count, assignment);
        run(result, () -> {
            Stat stat = client.checkExists().forPath(ClusterPaths.topic(topic));
            if (stat == null) {
                throw new UnknownTopicOrPartitionException("Topic '" + topic + "' does not exist");
            }
            long topicZxid = stat.getCzxid();
            if (!place(AdminRequest.Kind.CREATE_PARTITIONS, topic, request, requestZxid -> grown(topic, topicZxid, count),
                result, timeout)) {
                throw new ApiException(Errors.INVALID_REQUEST, "Another request is adding partitions to topic '" + topic
                    + "'; try again once it is done");
            }
        });
        return result;
    }

    /** Fails every pending result; their request znodes go with the session. */
    @Override
    public void close() {
        thread.shutdownNow();
        MillraceException closed = new MillraceException("Broker is shutting down");
        for (CompletableFuture<Void> result : inFlight) {
            result.completeExceptionally(closed);
        }
    }

    private CompletableFuture<Void> track(CompletableFuture<Void> result) {
        inFlight.add(result);
        result.whenComplete((ignored, error) -> inFlight.remove(result));
        return result;
    }

    /**
     * Writes the request znode and follows it; false when a request of this kind for the topic
     * already exists.
     *
     * @param visibleAfter given the request's creation zxid, what this broker's view must show for the request to be done
     */
    private boolean place(AdminRequest.Kind kind, String topic, byte[] data, LongFunction<Predicate<ClusterSnapshot>> visibleAfter,
                          CompletableFuture<Void> result, Duration timeout) throws Exception {
        String path = AdminRequest.path(kind, topic);
        Stat stat = new Stat();
        try {
            client.create().storingStatIn(stat).withMode(CreateMode.EPHEMERAL).forPath(path, data);
        } catch (KeeperException.NodeExistsException e) {
            return false;
        }
        new AdminRequestWatch(client, metadata, thread, path, stat, visibleAfter.apply(stat.getCzxid()), result, timeout).start();
        return true;
    }

    private void awaitVisible(CompletableFuture<Void> result, Predicate<ClusterSnapshot> visible, Duration timeout, String failure) {
        metadata.whenTrue(visible).orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS)
            .whenComplete((snapshot, error) -> {
                if (error == null) {
                    result.complete(null);
                } else {
                    result.completeExceptionally(new TimeoutException(failure + " within " + timeout.toMillis() + " ms"));
                }
            });
    }

    /** The topic exists, created by a request no older than the one with {@code requestZxid}. */
    static Predicate<ClusterSnapshot> createdAfter(String topic, long requestZxid) {
        return snapshot -> snapshot.topic(topic).map(t -> t.creationZxid() > requestZxid).orElse(false);
    }

    /** The incarnation of the topic created at {@code topicZxid} is no longer in the view. */
    static Predicate<ClusterSnapshot> gone(String topic, long topicZxid) {
        return snapshot -> snapshot.topic(topic).map(t -> t.creationZxid() != topicZxid).orElse(true);
    }

    /** The incarnation of the topic created at {@code topicZxid} has at least {@code count} partitions. */
    static Predicate<ClusterSnapshot> grown(String topic, long topicZxid, int count) {
        return snapshot -> snapshot.topic(topic).map(t -> t.creationZxid() == topicZxid && t.partitionCount() >= count).orElse(false);
    }

    /** Also checked by the controller, for requests written by others. */
    static void validatePartitions(int partitions) {
        if (partitions < 1) {
            throw new InvalidPartitionsException("Number of partitions must be larger than 0, got " + partitions);
        }
        if (partitions > MAX_PARTITIONS) {
            throw new InvalidPartitionsException("Number of partitions must be at most " + MAX_PARTITIONS + ", got " + partitions);
        }
    }

    private static void validateConfig(Map<String, String> config) {
        config.forEach((key, value) -> {
            if (key == null || key.isEmpty()) {
                throw new ConfigException("Topic configuration has an empty name");
            }
            if (value == null) {
                throw new ConfigException(key, null, "a topic configuration needs a value");
            }
        });
    }

    private interface ZkStep {
        void run() throws Exception;
    }

    private void run(CompletableFuture<Void> result, ZkStep step) {
        try {
            thread.execute(() -> {
                try {
                    step.run();
                } catch (MillraceException e) {
                    result.completeExceptionally(e);
                } catch (Exception e) {
                    result.completeExceptionally(new MillraceException("ZooKeeper request failed: " + e, e));
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new MillraceException("Broker is shutting down"));
        }
    }
}
