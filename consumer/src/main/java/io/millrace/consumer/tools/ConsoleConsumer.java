package io.millrace.consumer.tools;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.serialization.ByteArrayDeserializer;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.ConsumerIterator;
import io.millrace.consumer.ConsumerRecord;
import io.millrace.consumer.FetchedBatches;
import io.millrace.consumer.GroupConsumer;
import io.millrace.consumer.GroupOffsets;
import io.millrace.consumer.MessageStream;
import io.millrace.consumer.PartitionReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code bin/millrace console-consumer}: prints a topic's messages to stdout, one value per line.
 * With {@code --zookeeper} it joins a consumer group (a fresh {@code console-consumer-<random>} one
 * unless {@code --group} is given, removed again on exit) and reads {@code --topic} or every topic
 * matching {@code --whitelist}; with only {@code --bootstrap-server} it reads every partition of
 * {@code --topic} itself, without a group. Stops after {@code --max-messages} or on Ctrl-C, committing
 * on close.
 */
public final class ConsoleConsumer {

    private static final Set<String> OPTIONS = Set.of("--bootstrap-server", "--zookeeper", "--topic", "--whitelist",
        "--group", "--max-messages", "--property", "--consumer-property");
    private static final Set<String> FLAGS = Set.of("--from-beginning");
    static final String USAGE = "Usage: console-consumer (--bootstrap-server HOST:PORT | --zookeeper HOST:PORT) "
        + "(--topic T | --whitelist REGEX) [--group G] [--from-beginning] [--max-messages N] "
        + "[--property print.key=true --property key.separator=SEP] [--consumer-property k=v ...]";

    private ConsoleConsumer() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err, new AtomicBoolean()));
    }

    /** Runs until max-messages, or until {@code stop} is set (main sets it from a shutdown hook). */
    static int run(String[] args, PrintStream out, PrintStream err, AtomicBoolean stop) {
        try {
            ToolArgs parsed = new ToolArgs(args, OPTIONS, FLAGS);
            Printer printer = new Printer(out, parsed.properties("--property"), parsed.getLong("--max-messages", -1));
            if (parsed.has("--zookeeper")) {
                consumeInGroup(parsed, printer, stop);
            } else {
                consumeWithoutGroup(parsed, printer, stop);
            }
            out.flush();
            err.println("Processed a total of " + printer.count + " messages");
            return 0;
        } catch (ToolArgs.UsageException e) {
            err.println(e.getMessage());
            err.println(USAGE);
            return 2;
        } catch (RuntimeException e) {
            err.println("console-consumer failed: " + e);
            return 1;
        }
    }

    private static Map<String, Object> settings(ToolArgs args) {
        Map<String, Object> settings = new HashMap<>(args.properties("--consumer-property"));
        if (args.has("--bootstrap-server")) {
            settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, args.get("--bootstrap-server"));
        }
        if (args.has("--zookeeper")) {
            settings.put(CommonClientConfigs.ZOOKEEPER_CONNECT_CONFIG, args.get("--zookeeper"));
        }
        settings.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, args.has("--from-beginning") ? "smallest" : "largest");
        return settings;
    }

    private static void consumeInGroup(ToolArgs args, Printer printer, AtomicBoolean stop) {
        Map<String, Object> settings = settings(args);
        boolean freshGroup = !args.has("--group");
        String group = freshGroup ? "console-consumer-" + UUID.randomUUID().toString().substring(0, 8) : args.get("--group");
        settings.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        ConsumerConfig config = new ConsumerConfig(settings);
        GroupConsumer<byte[], byte[]> consumer = new GroupConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        Thread closer = new Thread(consumer::close, "console-consumer-shutdown");
        Runtime.getRuntime().addShutdownHook(closer);
        try {
            ConsumerIterator<byte[], byte[]> messages = stream(consumer, args).iterator();
            while (!printer.done() && !stop.get() && messages.hasNext()) {
                printer.print(messages.next());
                messages.markProcessed();   // printed is processed: close() commits it
            }
        } finally {
            consumer.close();
            removeShutdownHook(closer);
        }
        if (freshGroup) {
            try (GroupOffsets offsets = new GroupOffsets(config)) {
                offsets.deleteGroup(group);
            }
        }
    }

    private static MessageStream<byte[], byte[]> stream(GroupConsumer<byte[], byte[]> consumer, ToolArgs args) {
        if (args.has("--whitelist")) {
            return consumer.createMessageStreamsByFilter(args.get("--whitelist"), 1).get(0);
        }
        String topic = args.require("--topic");
        return consumer.createMessageStreams(Map.of(topic, 1)).get(topic).get(0);
    }

    /** Every partition of the topic, in turn, from the earliest or the latest offset: no group, no commits. */
    private static void consumeWithoutGroup(ToolArgs args, Printer printer, AtomicBoolean stop) {
        if (args.has("--whitelist")) {
            throw new ToolArgs.UsageException("--whitelist needs --zookeeper (a consumer group)");
        }
        String topic = args.require("--topic");
        try (PartitionReader reader = new PartitionReader(new ConsumerConfig(settings(args)))) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < reader.partitionCount(topic); p++) {
                partitions.add(new TopicPartition(topic, p));
            }
            Map<TopicPartition, Long> positions = new HashMap<>(reader.offsets(partitions, args.has("--from-beginning") ? -2L : -1L));
            while (!printer.done() && !stop.get()) {
                for (TopicPartition tp : partitions) {
                    FetchedBatches fetched = reader.fetch(tp, positions.get(tp));
                    for (ConsumerRecord<byte[], byte[]> record : fetched.records(Long.MAX_VALUE, new ByteArrayDeserializer(),
                        new ByteArrayDeserializer())) {
                        if (!printer.done()) {
                            printer.print(record);
                        }
                    }
                    positions.put(tp, fetched.nextOffset());
                }
            }
        }
    }

    private static void removeShutdownHook(Thread hook) {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: that is how we got here
        }
    }

    /** Prints values (and keys, with print.key=true) and counts them against --max-messages. */
    private static final class Printer {
        private final PrintStream out;
        private final boolean printKey;
        private final String keySeparator;
        private final long max;
        long count;

        Printer(PrintStream out, Map<String, String> properties, long max) {
            this.out = out;
            this.printKey = Boolean.parseBoolean(properties.getOrDefault("print.key", "false"));
            this.keySeparator = properties.getOrDefault("key.separator", "\t");
            this.max = max;
        }

        boolean done() {
            return max >= 0 && count >= max;
        }

        void print(ConsumerRecord<byte[], byte[]> record) {
            if (printKey) {
                out.print(text(record.key()) + keySeparator);
            }
            out.println(text(record.value()));
            count++;
        }

        private static String text(byte[] bytes) {
            return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
        }
    }
}
