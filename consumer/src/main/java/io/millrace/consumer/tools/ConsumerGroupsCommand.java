package io.millrace.consumer.tools;

import io.millrace.common.TopicPartition;
import io.millrace.common.client.CommonClientConfigs;
import io.millrace.common.protocol.message.ListOffsetsRequest;
import io.millrace.consumer.ConsumerConfig;
import io.millrace.consumer.GroupOffsets;
import io.millrace.consumer.GroupOffsets.PartitionLag;
import io.millrace.consumer.KafkaGroupDescription;
import java.io.PrintStream;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code bin/millrace consumer-groups}: the consumer groups of the offset registry in ZooKeeper, both
 * the ZooKeeper group consumer's and Kafka-protocol groups. {@code --list} names them; {@code
 * --describe --group G} shows each partition's committed offset, log end offset, lag and owner (for a
 * Kafka-protocol group, a line with its state and assignor first, and as owner the member its
 * coordinator says is assigned the partition); {@code --reset-offsets --group G --topic T
 * --to-earliest|--to-latest|--to-datetime ISO8601} prints the new offsets and, with {@code
 * --execute}, writes them; {@code --delete --group G} removes the group and its offsets (both
 * refused while the group has live members of either kind).
 */
public final class ConsumerGroupsCommand {

    private static final Set<String> OPTIONS = Set.of("--zookeeper", "--bootstrap-server", "--group", "--topic",
        "--to-datetime");
    private static final Set<String> FLAGS = Set.of("--list", "--describe", "--reset-offsets", "--delete",
        "--to-earliest", "--to-latest", "--execute");
    static final String USAGE = "Usage: consumer-groups --zookeeper HOST:PORT [--bootstrap-server HOST:PORT] "
        + "(--list | --describe --group G | --delete --group G | --reset-offsets --group G --topic T "
        + "(--to-earliest | --to-latest | --to-datetime 2024-01-31T12:00:00Z) [--execute])";
    private static final String ROW = "%-24s %-10s %-15s %-15s %-8s %s%n";

    private ConsumerGroupsCommand() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        try {
            ToolArgs parsed = new ToolArgs(args, OPTIONS, FLAGS);
            try (GroupOffsets groups = new GroupOffsets(config(parsed))) {
                if (parsed.has("--list")) {
                    groups.groups().forEach(out::println);
                } else if (parsed.has("--describe")) {
                    describe(groups, parsed.require("--group"), out);
                } else if (parsed.has("--reset-offsets")) {
                    return reset(groups, parsed, out, err);
                } else if (parsed.has("--delete")) {
                    return delete(groups, parsed.require("--group"), out, err);
                } else {
                    throw new ToolArgs.UsageException("Give one of --list, --describe, --reset-offsets, --delete");
                }
            }
            return 0;
        } catch (ToolArgs.UsageException e) {
            err.println(e.getMessage());
            err.println(USAGE);
            return 2;
        } catch (RuntimeException e) {
            err.println("consumer-groups failed: " + e.getMessage());
            return 1;
        }
    }

    private static ConsumerConfig config(ToolArgs args) {
        Map<String, Object> settings = new HashMap<>();
        settings.put(CommonClientConfigs.ZOOKEEPER_CONNECT_CONFIG, args.require("--zookeeper"));
        if (args.has("--bootstrap-server")) {
            settings.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, args.get("--bootstrap-server"));
        }
        return new ConsumerConfig(settings);
    }

    private static void describe(GroupOffsets groups, String group, PrintStream out) {
        Optional<KafkaGroupDescription> kafkaGroup = groups.kafkaGroup(group);
        kafkaGroup.ifPresent(g -> out.printf("Group %s: Kafka's group protocol, %s%s%s, %d member%s%n", group, g.state(),
            g.protocol().isEmpty() ? "" : ", assignor " + g.protocol(),
            g.coordinator() < 0 ? "" : ", coordinator broker " + g.coordinator(),
            g.members().size(), g.members().size() == 1 ? "" : "s"));
        out.printf(ROW, "TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET", "LAG", "OWNER");
        for (PartitionLag row : groups.describe(group, kafkaGroup)) {
            out.printf(ROW, row.topic(), row.partition(), row.committedOffset() < 0 ? "-" : row.committedOffset(),
                row.logEndOffset(), row.lag() < 0 ? "-" : row.lag(), row.owner() == null ? "-" : row.owner());
        }
    }

    private static int reset(GroupOffsets groups, ToolArgs args, PrintStream out, PrintStream err) {
        String group = args.require("--group");
        String topic = args.require("--topic");
        Map<TopicPartition, Long> plan = groups.planReset(topic, target(args));
        out.printf("%-24s %-10s %s%n", "TOPIC", "PARTITION", "NEW-OFFSET");
        plan.forEach((tp, offset) -> out.printf("%-24s %-10s %s%n", tp.topic(), tp.partition(), offset));
        if (!args.has("--execute")) {
            out.println("(dry run: add --execute to write these offsets)");
            return 0;
        }
        try {
            groups.executeReset(group, plan);
        } catch (IllegalStateException e) {
            err.println(e.getMessage());
            return 1;
        }
        out.println("Reset the offsets of group " + group + " for " + plan.size() + " partitions of " + topic);
        return 0;
    }

    private static int delete(GroupOffsets groups, String group, PrintStream out, PrintStream err) {
        if (!groups.groups().contains(group)) {
            err.println("Group " + group + " does not exist");
            return 1;
        }
        try {
            groups.deleteGroup(group);
        } catch (IllegalStateException e) {
            err.println(e.getMessage());
            return 1;
        }
        out.println("Deleted group " + group + " and its committed offsets");
        return 0;
    }

    private static long target(ToolArgs args) {
        if (args.has("--to-earliest")) {
            return ListOffsetsRequest.EARLIEST_TIMESTAMP;
        }
        if (args.has("--to-latest")) {
            return ListOffsetsRequest.LATEST_TIMESTAMP;
        }
        if (args.has("--to-datetime")) {
            return parseTime(args.get("--to-datetime"));
        }
        throw new ToolArgs.UsageException("Give --to-earliest, --to-latest or --to-datetime");
    }

    /** ISO 8601 with an offset or Z; without one the time is taken as UTC. */
    static long parseTime(String text) {
        try {
            return OffsetDateTime.parse(text).toInstant().toEpochMilli();
        } catch (DateTimeParseException withoutOffset) {
            try {
                return LocalDateTime.parse(text).toInstant(ZoneOffset.UTC).toEpochMilli();
            } catch (DateTimeParseException e) {
                try {
                    return Instant.parse(text).toEpochMilli();
                } catch (DateTimeParseException last) {
                    throw new ToolArgs.UsageException("Not an ISO 8601 time: " + text);
                }
            }
        }
    }
}
