package io.millrace.broker.tools;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command line of {@link TopicsCommand}, spelled as Kafka's {@code kafka-topics} spells it.
 *
 * @param partitions the value of {@code --partitions}, 0 when not given ({@link #partitionsOr})
 */
record TopicsOptions(String bootstrapServer, String zookeeper, Action action, String topic, int partitions,
                     short replicationFactor, Map<String, String> configs, List<String> deleteConfigs, boolean help) {

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
                return new TopicsOptions(null, null, null, null, 0, (short) 0, Map.of(), List.of(), true);
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
            return new TopicsOptions(bootstrapServer, zookeeper, action, topic, partitions, replicationFactor,
                Map.copyOf(configs), List.copyOf(deleteConfigs), false);
        }
    }
}
