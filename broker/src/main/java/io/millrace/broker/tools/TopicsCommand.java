package io.millrace.broker.tools;

import io.millrace.common.client.BootstrapServers;
import io.millrace.common.client.Cluster;
import io.millrace.common.client.Metadata;
import io.millrace.common.client.NetworkClient;
import io.millrace.common.client.Node;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.CreatePartitionsRequest;
import io.millrace.common.protocol.message.CreatePartitionsResponse;
import io.millrace.common.protocol.message.CreateTopicsRequest;
import io.millrace.common.protocol.message.CreateTopicsResponse;
import io.millrace.common.protocol.message.DeleteTopicsRequest;
import io.millrace.common.protocol.message.DeleteTopicsResponse;
import io.millrace.common.protocol.message.IncrementalAlterConfigsResponse;
import io.millrace.common.protocol.message.MetadataRequest;
import io.millrace.common.protocol.message.MetadataResponse;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * {@code bin/millrace topics}: creates, lists, describes, alters and deletes topics over the Kafka
 * protocol (CreateTopics, Metadata, DescribeConfigs, IncrementalAlterConfigs, CreatePartitions,
 * DeleteTopics), with the options of Kafka's {@code kafka-topics}, so it works against Millrace and
 * Apache Kafka brokers alike. {@code --describe} shows each topic's overrides as {@code Configs:};
 * {@code --alter} grows a topic to {@code --partitions N} (never fewer, as in Kafka) and changes its
 * overrides while the brokers run (as {@code kafka-configs --alter} does). {@code --zookeeper} finds the brokers in
 * the broker registry instead of {@code --bootstrap-server}.
 */
public final class TopicsCommand {

    static final String USAGE = String.join("\n",
        "Usage: millrace topics (--bootstrap-server HOST:PORT | --zookeeper HOST:PORT) ACTION",
        "  --create --topic T [--partitions N] [--replication-factor N | --replica-assignment 1:2,2:3] [--config k=v ...]",
        "  --list",
        "  --describe [--topic T]",
        "  --alter --topic T [--partitions N [--replica-assignment 1:2,2:3,...]] [--config k=v ...] [--delete-config k ...]",
        "  --delete --topic T");
    private static final int TIMEOUT_MS = 30_000;

    private TopicsCommand() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one action; returns the process exit code (0 ok, 1 failed, 2 bad usage). */
    static int run(String[] args, PrintStream out, PrintStream err) throws InterruptedException {
        TopicsOptions options;
        try {
            options = TopicsOptions.parse(args);
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            err.println(USAGE);
            return 2;
        }
        if (options.help()) {
            out.println(USAGE);
            return 0;
        }
        try (NetworkClient client = new NetworkClient(NetworkClient.Options.defaults("millrace-topics"))) {
            return execute(options, client, bootstrap(options), out, err);
        } catch (RuntimeException e) {
            err.println("Error: " + e.getMessage());
            return 1;
        }
    }

    private static List<InetSocketAddress> bootstrap(TopicsOptions options) {
        return options.bootstrapServer() != null ? BootstrapServers.parse(options.bootstrapServer())
            : BootstrapServers.fromZooKeeper(options.zookeeper(), TIMEOUT_MS);
    }

    private static int execute(TopicsOptions options, NetworkClient client, List<InetSocketAddress> bootstrap,
                               PrintStream out, PrintStream err) throws InterruptedException {
        Metadata metadata = new Metadata(client, bootstrap, 100, Long.MAX_VALUE);
        Cluster cluster = await(metadata.fetchAllTopics());
        return switch (options.action()) {
            case CREATE -> create(options, client, anyBroker(cluster, bootstrap), out, err);
            case DELETE -> delete(options, client, anyBroker(cluster, bootstrap), out, err);
            case LIST -> list(cluster, out);
            case DESCRIBE -> describe(partitions(client, anyBroker(cluster, bootstrap), described(options, cluster)),
                configs(client, anyBroker(cluster, bootstrap), described(options, cluster)), out, err);
            case ALTER -> alter(options, client, anyBroker(cluster, bootstrap), cluster.partitionCount(options.topic()), out,
                err);
        };
    }

    private static Node anyBroker(Cluster cluster, List<InetSocketAddress> bootstrap) {
        if (!cluster.nodes().isEmpty()) {
            return cluster.nodes().get(0);
        }
        InetSocketAddress first = bootstrap.get(0);
        return new Node(-1, first.getHostString(), first.getPort());
    }

    private static int create(TopicsOptions options, NetworkClient client, Node broker, PrintStream out,
                              PrintStream err) throws InterruptedException {
        List<CreateTopicsRequest.TopicConfig> configs = new ArrayList<>();
        options.configs().forEach((k, v) -> configs.add(new CreateTopicsRequest.TopicConfig(k, v)));
        List<CreateTopicsRequest.ReplicaAssignment> assignments = new ArrayList<>();
        for (int p = 0; p < options.replicaAssignment().size(); p++) {
            assignments.add(new CreateTopicsRequest.ReplicaAssignment(p, options.replicaAssignment().get(p)));
        }
        // with assignments Kafka wants -1 for both the count and the factor: the assignments give them
        CreateTopicsRequest request = new CreateTopicsRequest(List.of(new CreateTopicsRequest.CreatableTopic(
            options.topic(), assignments.isEmpty() ? options.partitionsOr(1) : -1, options.replicationFactor(), assignments,
            configs)), TIMEOUT_MS, false);
        CreateTopicsResponse.CreatableTopicResult result =
            TopicsCommand.<CreateTopicsResponse>await(client.send(broker, request, TIMEOUT_MS + 5_000)).topics().get(0);
        return report(result.error(), result.errorMessage(), "Created topic " + options.topic() + ".", out, err);
    }

    private static int delete(TopicsOptions options, NetworkClient client, Node broker, PrintStream out,
                              PrintStream err) throws InterruptedException {
        DeleteTopicsRequest request = new DeleteTopicsRequest(List.of(DeleteTopicsRequest.TopicRef.named(options.topic())),
            TIMEOUT_MS);
        DeleteTopicsResponse.DeletableTopicResult result =
            TopicsCommand.<DeleteTopicsResponse>await(client.send(broker, request, TIMEOUT_MS + 5_000)).responses().get(0);
        return report(result.error(), result.errorMessage(), "Deleted topic " + options.topic() + ".", out, err);
    }

    private static int alter(TopicsOptions options, NetworkClient client, Node broker, int currentPartitions, PrintStream out,
                             PrintStream err) throws InterruptedException {
        int code = options.partitions() > 0 ? addPartitions(options, client, broker, currentPartitions, out, err) : 0;
        if (code != 0 || (options.configs().isEmpty() && options.deleteConfigs().isEmpty())) {
            return code;
        }
        return alterConfigs(options, client, broker, out, err);
    }

    /** As Kafka's tool, a replica assignment lists every partition and the new ones are taken from it. */
    private static int addPartitions(TopicsOptions options, NetworkClient client, Node broker, int currentPartitions,
                                     PrintStream out, PrintStream err) throws InterruptedException {
        List<CreatePartitionsRequest.CreatePartitionsAssignment> added = options.replicaAssignment().isEmpty() ? null
            : options.replicaAssignment().subList(Math.min(currentPartitions, options.replicaAssignment().size()),
                options.replicaAssignment().size()).stream().map(CreatePartitionsRequest.CreatePartitionsAssignment::new).toList();
        CreatePartitionsRequest request = new CreatePartitionsRequest(List.of(new CreatePartitionsRequest.CreatePartitionsTopic(
            options.topic(), options.partitions(), added)), TIMEOUT_MS, false);
        CreatePartitionsResponse.CreatePartitionsTopicResult result =
            TopicsCommand.<CreatePartitionsResponse>await(client.send(broker, request, TIMEOUT_MS + 5_000)).results().get(0);
        return report(result.error(), result.errorMessage(), "Topic " + options.topic() + " now has " + options.partitions()
            + " partitions.", out, err);
    }

    private static int alterConfigs(TopicsOptions options, NetworkClient client, Node broker, PrintStream out,
                                    PrintStream err) throws InterruptedException {
        IncrementalAlterConfigsResponse.Result result = await(TopicConfigCalls.alter(client, broker, options.topic(),
            options.configs(), options.deleteConfigs(), TIMEOUT_MS + 5_000));
        return report(result.error(), result.errorMessage(), "Updated config for topic " + options.topic() + ".", out,
            err);
    }

    /** The topics' overrides, for describe; empty when the broker does not describe configurations. */
    private static Map<String, Map<String, String>> configs(NetworkClient client, Node broker, List<String> topics)
        throws InterruptedException {
        try {
            return await(TopicConfigCalls.overrides(client, broker, topics, TIMEOUT_MS + 5_000));
        } catch (RuntimeException e) {
            return Map.of();
        }
    }

    private static int report(Errors error, String message, String success, PrintStream out, PrintStream err) {
        if (error == Errors.NONE) {
            out.println(success);
            return 0;
        }
        err.println("Error: " + error.name() + ": " + (message == null || message.isEmpty() ? error.message() : message));
        return 1;
    }

    private static int list(Cluster cluster, PrintStream out) {
        new TreeSet<>(cluster.topics()).forEach(out::println);
        return 0;
    }

    private static List<String> described(TopicsOptions options, Cluster cluster) {
        return options.topic() == null ? new ArrayList<>(new TreeSet<>(cluster.topics())) : List.of(options.topic());
    }

    /** Each described topic's partitions, by topic, in the order asked, from one Metadata request. */
    private static Map<String, List<MetadataResponse.Partition>> partitions(NetworkClient client, Node broker, List<String> topics)
        throws InterruptedException {
        MetadataRequest request = new MetadataRequest(topics.stream().map(MetadataRequest.Topic::named).toList(), false, false,
            false);
        MetadataResponse response = await(client.send(broker, request, TIMEOUT_MS + 5_000));
        Map<String, List<MetadataResponse.Partition>> byTopic = new LinkedHashMap<>();
        topics.forEach(t -> byTopic.put(t, List.of()));
        for (MetadataResponse.Topic topic : response.topics()) {
            if (topic.errorCode() == Errors.NONE.code() && topic.name() != null) {
                byTopic.put(topic.name(), topic.partitions().stream()
                    .sorted(java.util.Comparator.comparingInt(MetadataResponse.Partition::partitionIndex)).toList());
            }
        }
        return byTopic;
    }

    /** As Kafka's tool prints it: a topic line, then each partition's leader ("none" when offline), replicas and ISR. */
    private static int describe(Map<String, List<MetadataResponse.Partition>> topics, Map<String, Map<String, String>> configs,
                                PrintStream out, PrintStream err) {
        for (Map.Entry<String, List<MetadataResponse.Partition>> entry : topics.entrySet()) {
            String topic = entry.getKey();
            List<MetadataResponse.Partition> partitions = entry.getValue();
            if (partitions.isEmpty()) {
                err.println("Error: topic '" + topic + "' does not exist");
                return 1;
            }
            out.println("Topic: " + topic + "\tPartitionCount: " + partitions.size() + "\tReplicationFactor: "
                + partitions.get(0).replicaNodes().size() + "\tConfigs: " + configText(configs.getOrDefault(topic, Map.of())));
            for (MetadataResponse.Partition p : partitions) {
                String leader = p.leaderId() < 0 ? "none" : String.valueOf(p.leaderId());
                out.println("\tTopic: " + topic + "\tPartition: " + p.partitionIndex() + "\tLeader: " + leader
                    + "\tReplicas: " + ids(p.replicaNodes()) + "\tIsr: " + ids(p.isrNodes())
                    + (p.offlineReplicas().isEmpty() ? "" : "\tOffline: " + ids(p.offlineReplicas())));
            }
        }
        return 0;
    }

    private static String ids(List<Integer> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private static String configText(Map<String, String> overrides) {
        return overrides.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
    }

    private static <T> T await(java.util.concurrent.CompletableFuture<T> future) throws InterruptedException {
        try {
            return future.get(TIMEOUT_MS + 10_000L, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("No answer within " + (TIMEOUT_MS + 10_000) + " ms");
        }
    }
}
