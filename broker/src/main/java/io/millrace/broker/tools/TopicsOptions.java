package io.millrace.broker.tools;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line of {@link TopicsCommand}, spelled as Kafka's {@code kafka-topics} spells it.
 *
 * @param partitions the value of {@code --partitions}, 0 when not given ({@link #partitionsOr})
 * @param replicaAssignment {@code --replica-assignment}: each partition's replicas, from partition 0, as
 *     Kafka's tool reads {@code 1:2,2:3} (partition 0 on brokers 1 and 2, partition 1 on 2 and 3); empty when not given
 */
record TopicsOptions(String bootstrapServer, String zookeeper, Action action, String topic, int partitions,
                     short replicationFactor, List<List<Integer>> replicaAssignment, Map<String, String> configs,
                     List<String> deleteConfigs, boolean help) {

    enum Action { CREATE, LIST, DESCRIBE, DELETE, ALTER }

    /** {@code --partitions}, or {@code fallback} when it was not given. */
    int partitionsOr(int fallback) {
        return partitions > 0 ? partitions : fallback;
    }

    private static final String ACTIONS = "Give one of --create, --list, --describe, --alter, --delete";

    /** Throws {@link IllegalArgumentException} with a message fit for the user. */
    static TopicsOptions parse(String[] args) {
        Builder b = new Builder();
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--create" -> b.action(Action.CREATE);
                case "--list" -> b.action(Action.LIST);
                case "--describe" -> b.action(Action.DESCRIBE);
                case "--delete" -> b.action(Action.DELETE);
                case "--alter" -> b.action(Action.ALTER);
                case "-h", "--help" -> b.help = true;
                default -> i = b.option(arg, args, i);
            }
        }
        return b.build();
    }

    private static final class Builder {
        String bootstrapServer;
        String zookeeper;
        Action action;
        String topic;
        int partitions;
        /** -1: the broker's default.replication.factor, as Kafka's tool leaves it. */
        short replicationFactor = -1;
        List<List<Integer>> replicaAssignment = List.of();
        final Map<String, String> configs = new LinkedHashMap<>();
        final List<String> deleteConfigs = new ArrayList<>();
        boolean help;

        void action(Action a) {
            if (action != null && action != a) {
                throw new IllegalArgumentException(ACTIONS);
            }
            action = a;
        }

        int option(String name, String[] args, int i) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(name.startsWith("--") ? name + " needs a value" : "Unknown argument " + name);
            }
            String value = args[i + 1];
            switch (name) {
                case "--bootstrap-server" -> bootstrapServer = value;
                case "--zookeeper" -> zookeeper = value;
                case "--topic" -> topic = value;
                case "--partitions" -> partitions = positive(name, value);
                case "--replication-factor" -> replicationFactor = (short) positive(name, value);
                case "--replica-assignment" -> replicaAssignment = assignment(value);
                case "--config" -> config(value);
                case "--delete-config" -> deleteConfigs.add(value);
                default -> throw new IllegalArgumentException("Unknown option " + name);
            }
            return i + 1;
        }

        private void config(String pair) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--config takes key=value, not '" + pair + "'");
            }
            configs.put(pair.substring(0, eq), pair.substring(eq + 1));
        }

        /** Kafka's form: partitions separated by commas, each partition's brokers by colons, preferred leader first. */
        private static List<List<Integer>> assignment(String value) {
            List<List<Integer>> partitions = new ArrayList<>();
            for (String partition : value.split(",", -1)) {
                List<Integer> brokers = new ArrayList<>();
                for (String broker : partition.split(":", -1)) {
                    try {
                        brokers.add(Integer.parseInt(broker.trim()));
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--replica-assignment takes broker ids as 1:2,2:3 (partition 0 "
                            + "on brokers 1 and 2, partition 1 on 2 and 3), not '" + value + "'");
                    }
                }
                partitions.add(List.copyOf(brokers));
            }
            return List.copyOf(partitions);
        }

        private static int positive(String name, String value) {
            try {
                int n = Integer.parseInt(value);
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // fall through to the message
            }
            throw new IllegalArgumentException(name + " takes a positive number, not '" + value + "'");
        }

        TopicsOptions build() {
            if (help) {
                return new TopicsOptions(null, null, null, null, 0, (short) 0, List.of(), Map.of(), List.of(), true);
            }
            if (action == null) {
                throw new IllegalArgumentException(ACTIONS);
            }
            if ((bootstrapServer == null) == (zookeeper == null)) {
                throw new IllegalArgumentException("Give exactly one of --bootstrap-server and --zookeeper");
            }
            if (action != Action.LIST && action != Action.DESCRIBE && topic == null) {
                throw new IllegalArgumentException("--" + action.name().toLowerCase() + " needs --topic");
            }
            if (action == Action.ALTER && configs.isEmpty() && deleteConfigs.isEmpty() && partitions == 0) {
                throw new IllegalArgumentException("--alter needs --config k=v, --delete-config k or --partitions N");
            }
            if (!replicaAssignment.isEmpty()) {
                checkAssignment();
            }
            return new TopicsOptions(bootstrapServer, zookeeper, action, topic, partitions, replicationFactor,
                replicaAssignment, Map.copyOf(configs), List.copyOf(deleteConfigs), false);
        }

        /** As Kafka's tool: with --create instead of a count and factor, with --alter beside the new count. */
        private void checkAssignment() {
            if (action == Action.CREATE && (partitions > 0 || replicationFactor != -1)) {
                throw new IllegalArgumentException("--replica-assignment cannot be used with --partitions or "
                    + "--replication-factor: it gives both");
            }
            if (action == Action.ALTER && partitions != replicaAssignment.size()) {
                throw new IllegalArgumentException("--alter --partitions " + partitions + " needs --replica-assignment to "
                    + "list all " + partitions + " partitions, not " + replicaAssignment.size());
            }
            if (action != Action.CREATE && action != Action.ALTER) {
                throw new IllegalArgumentException("--replica-assignment goes with --create or --alter --partitions N");
            }
        }
    }
}
