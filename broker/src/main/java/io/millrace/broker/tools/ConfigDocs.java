package io.millrace.broker.tools;

import io.millrace.broker.cluster.ClusterConfig;
import io.millrace.broker.group.GroupConfig;
import io.millrace.broker.log.LogConfig;
import io.millrace.broker.network.NetworkConfig;
import io.millrace.broker.replica.ReplicaConfig;
import io.millrace.broker.server.BrokerConfig;
import io.millrace.broker.txn.TransactionConfig;
import io.millrace.common.config.ConfigDef;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Renders docs/configuration.md from the configuration classes, so the reference can never
 * disagree with the code: {@code bin/millrace config-docs [FILE]} writes it, and a test fails
 * when the checked-in file is stale.
 */
public final class ConfigDocs {

    private ConfigDocs() {
    }

    /** The documented sections, in order: title and the definition it renders. */
    static Map<String, ConfigDef> sections() {
        Map<String, ConfigDef> sections = new LinkedHashMap<>();
        sections.put("Broker: request handling", BrokerConfig.CONFIG);
        sections.put("Broker: network (listeners, threads, request limits)", NetworkConfig.CONFIG);
        sections.put("Broker: cluster membership and ZooKeeper", ClusterConfig.CONFIG_DEF);
        sections.put("Broker: log storage (`log.*`, broker-wide defaults)", LogConfig.BROKER_CONFIG);
        sections.put("Broker: group coordinator (Kafka-protocol consumer groups)", GroupConfig.CONFIG);
        sections.put("Broker: transaction coordinator (Kafka's transactions)", TransactionConfig.CONFIG);
        sections.put("Broker: replication (followers fetching from leaders, in-sync replicas)", ReplicaConfig.CONFIG);
        sections.put("Topic-level overrides (CreateTopics configs, `/millrace/config/topics`)", LogConfig.TOPIC_CONFIG);
        return sections;
    }

    public static String render() {
        StringBuilder out = new StringBuilder();
        out.append("# Configuration\n\n")
            .append("Every setting Millrace reads, generated from the configuration classes by\n")
            .append("`bin/millrace config-docs docs/configuration.md`; a test fails when this file is stale.\n")
            .append("Names follow Apache Kafka's where the meaning is the same; units are in the name.\n")
            .append("Values are validated at startup and a bad one stops the component with a message\n")
            .append("naming the setting.\n");
        sections().forEach((title, def) -> out.append("\n## ").append(title).append("\n\n").append(def.toMarkdownTable()));
        return out.toString();
    }

    /** {@code config-docs [DOCS_FILE [PROPERTIES_FILE]]}: e.g. docs/configuration.md config/broker.properties. */
    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.out.print(render());
            return;
        }
        Files.writeString(Path.of(args[0]), render());
        System.out.println("wrote " + args[0]);
        if (args.length > 1) {
            Files.writeString(Path.of(args[1]), BrokerConfig.toPropertiesFile());
            System.out.println("wrote " + args[1]);
        }
    }
}
