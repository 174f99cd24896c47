package io.millrace.bench.compare;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;

/**
 * Several brokers of one kind on this machine, each in a JVM of its own with the same heap and its
 * data in a directory of its own under a common parent. {@link #close()} stops the nodes in the
 * reverse of their start order, so brokers leave while the node holding the cluster's metadata
 * (Millrace's ZooKeeper, Kafka's controller) is still there, and deletes their data; each node's
 * shutdown hook does the same should the bench JVM exit first.
 */
abstract class BrokerCluster implements AutoCloseable {

    private static final int ADMIN_TIMEOUT_MS = 10_000;

    /** The started nodes, in start order. */
    final List<BrokerProcess> nodes = new ArrayList<>();
    final int size;
    final Path dataParent;
    final Path logDir;
    final String heap;

    BrokerCluster(int size, Path dataParent, Path logDir, String heap) {
        if (size < 1) {
            throw new IllegalArgumentException("A cluster needs at least one broker, not " + size);
        }
        this.size = size;
        // each node runs in its own directory, where a relative path would mean something else
        this.dataParent = dataParent.toAbsolutePath();
        this.logDir = logDir.toAbsolutePath();
        this.heap = heap;
    }

    /**
     * A started cluster of {@code size} brokers of the given side ({@link BrokerComparison#MILLRACE} or
     * {@link BrokerComparison#KAFKA}), their process output in {@code logDir}.
     */
    static BrokerCluster start(String side, int size, Path dataParent, Path logDir, String heap) throws Exception {
        BrokerCluster cluster = switch (side) {
            case BrokerComparison.MILLRACE -> new MillraceCluster(size, dataParent, logDir, heap);
            case BrokerComparison.KAFKA -> new KafkaCluster(size, dataParent, logDir, heap);
            default -> throw new IllegalArgumentException("No such side: " + side);
        };
        try {
            cluster.startNodes();
            cluster.awaitBrokers();
        } catch (Exception | Error e) {
            try {
                cluster.close();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        return cluster;
    }

    /** Starts every node; returns once each has been started, not necessarily joined. */
    abstract void startNodes() throws Exception;

    /** The process output file of one node, named after the side, the cluster size and the node. */
    Path processLog(String side, int node) {
        return logDir.resolve(side + "-cluster" + size + "-node" + node + ".log");
    }

    /** Every broker: what Kafka clients take as {@code bootstrap.servers}. */
    String bootstrapServers() {
        StringJoiner servers = new StringJoiner(",");
        nodes.forEach(n -> servers.add(n.bootstrapServers()));
        return servers.toString();
    }

    int size() {
        return size;
    }

    Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, ADMIN_TIMEOUT_MS / 2,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, ADMIN_TIMEOUT_MS));
    }

    /** Returns once the cluster's metadata lists all its brokers. */
    private void awaitBrokers() throws Exception {
        long deadline = System.nanoTime() + BrokerProcess.START_TIMEOUT.toNanos();
        try (Admin admin = admin()) {
            while (true) {
                nodes.forEach(BrokerProcess::checkAlive);
                try {
                    Collection<Node> brokers = admin.describeCluster().nodes().get(ADMIN_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                    if (brokers.size() == size) {
                        return;
                    }
                } catch (ExecutionException | TimeoutException e) {
                    // not up yet
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Not all " + size + " brokers joined within "
                        + BrokerProcess.START_TIMEOUT + "; see the logs in " + logDir);
                }
                Thread.sleep(200);
            }
        }
    }

    /**
     * Creates a topic with replication factor 1, placed by the cluster's own assignment, and returns
     * once every partition has a leader: the leader's broker id by partition.
     */
    Map<Integer, Integer> createTopic(String topic, int partitions) throws Exception {
        return createTopic(topic, partitions, 1, Map.of());
    }

    /**
     * As {@link #createTopic(String, int)}, with {@code replicationFactor} replicas of each partition
     * and the topic settings in {@code configs} (such as {@code min.insync.replicas}).
     */
    Map<Integer, Integer> createTopic(String topic, int partitions, int replicationFactor, Map<String, String> configs)
        throws Exception {
        try (Admin admin = admin()) {
            NewTopic newTopic = new NewTopic(topic, partitions, (short) replicationFactor).configs(configs);
            admin.createTopics(List.of(newTopic)).all().get(60, TimeUnit.SECONDS);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (true) {
                Map<Integer, Integer> leaders = leaders(admin, topic);
                if (leaders.size() == partitions) {
                    return leaders;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Topic " + topic + " has leaders for " + leaders + " only after 60 s");
                }
                Thread.sleep(50);
            }
        }
    }

    /** The partitions of a topic that have a leader, with its broker id; empty while the topic is unknown. */
    private static Map<Integer, Integer> leaders(Admin admin, String topic) throws Exception {
        Map<Integer, Integer> leaders = new TreeMap<>();
        try {
            TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
            for (TopicPartitionInfo p : d.partitions()) {
                if (p.leader() != null && !p.leader().isEmpty()) {
                    leaders.put(p.partition(), p.leader().id());
                }
            }
        } catch (ExecutionException | TimeoutException e) {
            // metadata not there yet
        }
        return leaders;
    }

    /**
     * Each partition of {@code topic} as the cluster describes it now (leader, replicas, in-sync
     * replicas), for a failure's message; what went wrong asking, if it did.
     */
    String describe(String topic) {
        try (Admin admin = admin()) {
            TopicDescription d = admin.describeTopics(List.of(topic)).allTopicNames().get(10, TimeUnit.SECONDS).get(topic);
            StringJoiner partitions = new StringJoiner("; ");
            for (TopicPartitionInfo p : d.partitions()) {
                partitions.add(p.partition() + ": leader " + (p.leader() == null ? "none" : p.leader().id())
                    + ", replicas " + ids(p.replicas()) + ", isr " + ids(p.isr()));
            }
            return partitions.toString();
        } catch (Exception e) {
            return "not described: " + e;
        }
    }

    private static String ids(List<Node> nodes) {
        StringJoiner ids = new StringJoiner(",", "[", "]");
        nodes.forEach(n -> ids.add(Integer.toString(n.id())));
        return ids.toString();
    }

    /** Stops the nodes, last started first, and deletes their data. Idempotent. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (int i = nodes.size() - 1; i >= 0; i--) {
            try {
                nodes.get(i).close();
            } catch (RuntimeException e) {
                failure = failure == null ? e : failure;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
